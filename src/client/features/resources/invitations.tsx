// Issue 22: "Resend invitation" on a person's page, on their row, and for the people ticked on a
// list. Only someone still invited (never set a password) can be invited again; the server says so
// too, and mails a new link that replaces the old one.
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import { api } from '../../lib/api';
import { notify } from '../../lib/toast';
import { auth } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { Icon } from '../../ui/icons';
import { iconAction } from '../../ui/resources/resource-list';
import type { Row } from '../../ui/resources/use-resource-query';

const isInvited = (row: Row) => row.access_status === 'invited' && row.status === 'active';

/** Whether the signed-in account may invite people of this list again (its edit permission; admins' accounts by an admin). */
function canResend(definition: ResourceDefinition, held: { roles: readonly string[]; permissions: readonly string[] }) {
  if (!definition.permissions.edit || !hasPermission([...held.permissions], definition.permissions.edit)) return false;
  return !definition.isWrittenByAdminOnly || isAdmin({ roles: [...held.roles] });
}

function useCanResend(definition: ResourceDefinition) {
  return canResend(definition, useSnapshot(auth.app).permissions);
}

async function resendOne(definition: ResourceDefinition, row: Row): Promise<boolean> {
  try {
    const answer = await api.post<{ message: string }>(`/${definition.name}/${row.id}/resend-invitation`);
    notify.success(answer.message);
    return true;
  } catch { return false; /* the wrapper reported it */ }
}

/** On the person's page, while they have not accepted. */
export function InvitationSection({ definition, row }: { definition: ResourceDefinition; row: Row }) {
  const canInvite = useCanResend(definition);
  const [isSending, setSending] = useState(false);
  if (!isInvited(row) || !canInvite) return null;
  return (
    <Card>
      <CardHeader title="Invitation"
        description={`${String(row.name)} has not set a password yet. A new invitation is valid for 7 days; the link sent before stops working.`}
        actions={(
          <Button variant="secondary" isLoading={isSending} onClick={async () => { setSending(true); await resendOne(definition, row); setSending(false); }}>
            {!isSending && <Icon name="mail" className="size-4" />}Resend invitation
          </Button>
        )} />
    </Card>
  );
}

/** On the person's row of a list. */
export function ResendInvitationAction({ definition, row }: { definition: ResourceDefinition; row: Row }) {
  const canInvite = useCanResend(definition);
  const [isSending, setSending] = useState(false);
  if (!isInvited(row) || !canInvite) return null;
  return (
    <button type="button" className={iconAction} disabled={isSending} aria-label={`Resend invitation to ${String(row.name)}`} title="Resend invitation"
      onClick={async () => { setSending(true); await resendOne(definition, row); setSending(false); }}>
      <Icon name="mail" className="size-4" />
    </button>
  );
}

/** The list's bulk action: ticked rows are the people still invited. */
export function invitationBulk(definition: ResourceDefinition) {
  return {
    isSelectable: (row: Row) => isInvited(row) && canResend(definition, auth.app.permissions),
    bar: (rows: Row[], done: () => void) => <ResendBar definition={definition} rows={rows} done={done} />,
  };
}

function ResendBar({ definition, rows, done }: { definition: ResourceDefinition; rows: Row[]; done: () => void }) {
  const [isSending, setSending] = useState(false);
  const onResend = async () => {
    setSending(true);
    try {
      const answer = await api.post<{ message: string }>(`/${definition.name}/resend-invitation`, { ids: rows.map((row) => row.id) });
      notify.success(answer.message);
      done();
    } catch { /* the wrapper reported it */ } finally { setSending(false); }
  };
  return (
    <div role="region" aria-label="Chosen people" className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-indigo-50/60 px-4 py-2 text-sm dark:border-slate-800 dark:bg-indigo-500/10">
      <span className="font-medium text-slate-800 dark:text-slate-100">{rows.length === 1 ? '1 person chosen' : `${rows.length} people chosen`}</span>
      <Button size="sm" onClick={onResend} isLoading={isSending}>{!isSending && <Icon name="mail" className="size-4" />}Resend invitation</Button>
    </div>
  );
}
