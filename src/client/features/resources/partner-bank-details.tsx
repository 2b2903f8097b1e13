// Issue 28: on a partner firm's page, finance sees the bank details in force, a change the firm asked
// for (old beside new) and the history, and approves or rejects the change with a reason the firm is
// told. Until it is approved, payments go to the old account. Issue 28 too: a role is cloned from the
// role list (a copy with the same permissions, under a new name).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { rejectBankChangeSchema, type FirmBankDetails } from '../../../shared/resources/ikk-partner';
import { cloneRoleSchema } from '../../../shared/resources/role';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useForm } from '../../lib/form';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { useCan } from '../../stores/auth';
import { BankAccountLines, BankChangeHistory, PendingBankChange } from '../../ui/bank-change';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormAlert, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { Modal } from '../../ui/modal';
import { iconAction } from '../../ui/resources/resource-list';
import { TextAreaField } from '../../ui/textarea-field';
import type { Row } from '../../ui/resources/use-resource-query';

export const BANK_APPROVER_PERMISSION = 'can-approve-partner-bank-details';

/** The firm's bank details on its page, for finance. */
export function PartnerBankDetails({ row }: { row: Row }) {
  const can = useCan('app');
  if (!can(BANK_APPROVER_PERMISSION)) return null;
  return <BankPanel partnerId={Number(row.id)} firmName={String(row.name ?? '')} />;
}

function BankPanel({ partnerId, firmName }: { partnerId: number; firmName: string }) {
  const key = queryKeys.recordPart('ikk-partner', partnerId, 'bank-details');
  const { data } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<{ data: FirmBankDetails }>(`/ikk-partner/${partnerId}/bank-details`, { signal }).then((answer) => answer.data),
  }, queryClient);
  const [isApproving, setApproving] = useState(false);
  const [isRejecting, setRejecting] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const done = (answer: { data: FirmBankDetails; message: string }) => {
    queryClient.setQueryData(key, answer.data);
    invalidateAfterWrite('ikk-partner', partnerId);
    notify.success(answer.message);
  };
  const approve = async () => {
    if (!data?.pending) return;
    setBusy(true);
    try {
      done(await api.post<{ data: FirmBankDetails; message: string }>(`/ikk-partner/${partnerId}/bank-changes/${data.pending.id}/approve`, {}));
      setApproving(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mt-6">
      <CardHeader id={`partner-bank-${partnerId}`} title="Bank details"
        description="Where this firm's invoices are paid. A change the firm asks for waits for finance; payments go to the account in force until it is approved." />
      {!data && <div role="status" aria-label="Loading" className="space-y-3 px-5 py-5"><Skeleton className="h-9" /><Skeleton className="h-9" /></div>}
      {data && (
        <div className="space-y-5 px-5 py-5">
          <div>
            <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">In force</h4>
            <BankAccountLines account={data.current} empty="No bank details approved yet." />
            {data.current?.approved_at && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Approved on {formatDateTime(data.current.approved_at)}</p>}
          </div>
          {data.pending && (
            <PendingBankChange change={data.pending}
              note="Before approving, confirm the change with the firm through a contact you already hold (not one given in the request)."
              actions={(
                <>
                  <Button variant="secondary" onClick={() => setRejecting(true)}>Reject</Button>
                  <Button onClick={() => setApproving(true)}>Approve new details</Button>
                </>
              )} />
          )}
          <BankChangeHistory history={data.history} />
        </div>
      )}
      <ConfirmDialog open={isApproving} tone="primary" isLoading={isBusy} onConfirm={approve} onClose={() => setApproving(false)}
        title={`Approve the new bank details of ${firmName}?`} confirmLabel="Approve new details"
        message="Payments to the firm go to the new account from now on. The firm is told." />
      <Modal open={isRejecting} title={`Reject the new bank details of ${firmName}`} onClose={() => setRejecting(false)}>
        {data?.pending && (
          <RejectForm onCancel={() => setRejecting(false)} onSubmit={async (reason) => {
            done(await api.post<{ data: FirmBankDetails; message: string }>(`/ikk-partner/${partnerId}/bank-changes/${data.pending!.id}/reject`, { reason }, { form: true }));
            setRejecting(false);
          }} />
        )}
      </Modal>
    </Card>
  );
}

function RejectForm({ onSubmit, onCancel }: { onSubmit: (reason: string) => Promise<void>; onCancel: () => void }) {
  const form = useForm({ initial: { reason: '' }, schema: rejectBankChangeSchema, onSubmit: (values) => onSubmit(values.reason) });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label="Reject the new bank details" className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      <TextAreaField label="Reason" required rows={3} maxLength={1000} {...form.field('reason')} hint="The firm reads this. The account in force stays as it is." />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-5 sm:flex-row sm:justify-end dark:border-slate-800">
        <Button variant="secondary" onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="danger" isLoading={form.isSubmitting}>Reject</Button>
      </div>
    </form>
  );
}

/** The role list's Clone action: a copy under a new name, with the same permissions and no holders. */
export function CloneRoleAction({ row }: { row: Row }) {
  const [isOpen, setOpen] = useState(false);
  const name = String(row.name ?? '');
  return (
    <>
      <button type="button" className={iconAction} aria-label={`Clone ${name}`} title="Clone" onClick={() => setOpen(true)}>
        <Icon name="copy" className="size-4" />
      </button>
      <Modal open={isOpen} title={`Clone the ${name} role`} onClose={() => setOpen(false)}>
        <CloneForm roleId={Number(row.id)} name={name} onDone={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function CloneForm({ roleId, name, onDone }: { roleId: number; name: string; onDone: () => void }) {
  const form = useForm({
    initial: { name: `${name} (copy)` },
    schema: cloneRoleSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>(`/role/${roleId}/clone`, values, { form: true });
      invalidateAfterWrite('role');
      notify.success(answer.message);
      onDone();
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label={`Clone the ${name} role`} className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      <p className="text-sm text-slate-600 dark:text-slate-300">The new role starts with the same permissions as {name}. Nobody holds it until you give it to someone.</p>
      <TextField label="Name of the new role" autoComplete="off" required {...form.field('name')} />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-5 sm:flex-row sm:justify-end dark:border-slate-800">
        <Button variant="secondary" onClick={onDone}>Cancel</Button>
        <Button type="submit" isLoading={form.isSubmitting}>Clone role</Button>
      </div>
    </form>
  );
}
