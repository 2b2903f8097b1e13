// Issue 29: an admin resets someone's second factor (a lost phone): on a staff member's page, and on a
// partner login's row of the firm's page. The server turns off the authenticator app, removes the
// recovery codes and passkeys, ends the person's sessions and records who did it (POST /two-factor/reset).
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { isAdmin } from '../../../shared/permissions';
import { api } from '../../lib/api';
import { notify } from '../../lib/toast';
import { auth } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Icon } from '../../ui/icons';
import { iconAction } from '../../ui/resources/resource-list';
import type { Row } from '../../ui/resources/use-resource-query';

type Target = 'app' | 'partner';

function useIsAdmin() {
  const { roles } = useSnapshot(auth.app).permissions;
  return isAdmin({ roles: [...roles] });
}

/** The confirmation and the call, shared by the page's button and the row's. */
function ResetDialog({ target, row, open, onClose }: { target: Target; row: Row; open: boolean; onClose: () => void }) {
  const [isResetting, setResetting] = useState(false);
  const name = String(row.name);
  const onConfirm = async () => {
    setResetting(true);
    try {
      const answer = await api.post<{ message: string }>('/two-factor/reset', { account_type: target, account_id: row.id });
      notify.success(answer.message);
      onClose();
    } catch { /* the API wrapper said why */ } finally { setResetting(false); }
  };
  return (
    <ConfirmDialog open={open} onClose={onClose} onConfirm={() => void onConfirm()} isLoading={isResetting}
      title={`Reset ${name}'s second factor?`}
      message="Their authenticator app and recovery codes stop working, their passkeys are removed, and they are signed out everywhere. Do this when they have lost their phone, after making sure it is really them asking."
      confirmLabel="Reset second factor" />
  );
}

/** On a staff member's page, for admins. */
export function SecondFactorSection({ row }: { row: Row }) {
  const isAllowed = useIsAdmin();
  const [isOpen, setOpen] = useState(false);
  if (!isAllowed) return null;
  return (
    <Card>
      <CardHeader title="Second factor"
        description={`If ${String(row.name)} has lost the phone with their authenticator app or passkeys, reset their second factor so they can sign in with their password and set up a new one.`}
        actions={<Button variant="secondary" onClick={() => setOpen(true)}><Icon name="shield" className="size-4" />Reset second factor</Button>} />
      <ResetDialog target="app" row={row} open={isOpen} onClose={() => setOpen(false)} />
    </Card>
  );
}

/** On a partner login's row of the firm's page, for admins. */
export function ResetSecondFactorAction({ row }: { row: Row }) {
  const isAllowed = useIsAdmin();
  const [isOpen, setOpen] = useState(false);
  if (!isAllowed) return null;
  return (
    <>
      <button type="button" className={iconAction} aria-label={`Reset ${String(row.name)}'s second factor`} title="Reset second factor" onClick={() => setOpen(true)}>
        <Icon name="shield" className="size-4" />
      </button>
      <ResetDialog target="partner" row={row} open={isOpen} onClose={() => setOpen(false)} />
    </>
  );
}
