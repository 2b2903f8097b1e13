// Reimbursement batches beside the generic screens (issue 21): the New batch screen (approved claims
// to tick), and on a batch's page its payees and claims, the bank file, Mark paid and Cancel. The
// generic list shows the batches; this file lives beside the role form because the resource screen
// may not import another feature (eslint import-direction).
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { expenseWorkflow } from '../../../shared/resources/expense';
import { formatMoney, sumMoney } from '../../../shared/money';
import { workflowState } from '../../../shared/resources/define';
import { payBatchSchema, REIMBURSE_PERMISSION } from '../../../shared/resources/reimbursement-batch';
import { routePath } from '../../../shared/routes';
import type { BatchClaim, BatchClaims, PayeeTotal as Payee } from '../../../shared/schemas/reimbursement';
import { today } from '../../../shared/dates';
import { api } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { auth, useCan } from '../../stores/auth';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { Badge } from '../../ui/badge';
import { BankDetailsForm } from '../../ui/bank-details-form';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DateField } from '../../ui/date-input';
import { EmptyState } from '../../ui/empty-state';
import { FormAlert, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Modal } from '../../ui/modal';
import { BackLink } from '../../ui/resources/resource-detail';
import { DataTable, TableSkeleton, type TableColumn } from '../../ui/table';
import type { Row } from '../../ui/resources/use-resource-query';

type Claim = BatchClaim & { has_bank_details?: boolean };

const amountCell = (amount: number, currency: string) => <span className="font-medium whitespace-nowrap tabular-nums">{formatMoney(amount, currency)}</span>;

/** The batch list's total: its sums per currency, each unbroken. */
export function BatchTotals({ row }: { row: Row }) {
  const totals = Array.isArray(row.totals_by_currency) ? row.totals_by_currency as { currency: string; amount: number }[] : [];
  if (!totals.length) return <span className="text-slate-400">—</span>;
  return (
    <span className="inline-flex flex-col">
      {totals.map((total) => <span key={total.currency} className="font-medium whitespace-nowrap tabular-nums">{formatMoney(total.amount, total.currency)}</span>)}
    </span>
  );
}

/** Sums per currency of some claims, in whole cents (never adding binary fractions). */
function sumsOf(claims: readonly Claim[]): { currency: string; amount: number }[] {
  const byCurrency = new Map<string, number[]>();
  for (const claim of claims) byCurrency.set(claim.currency, [...(byCurrency.get(claim.currency) ?? []), claim.amount]);
  return [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amounts]) => ({ currency, amount: sumMoney(amounts) }));
}

const sumsText = (claims: readonly Claim[]) => sumsOf(claims).map((sum) => formatMoney(sum.amount, sum.currency)).join(' + ');

const indexPath = routePath('reimbursement-batch.index');

export function NewBatchLink() {
  return (
    <Link href={routePath('reimbursement-batch.create')}
      className="inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-indigo-600 px-3 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 sm:px-4">
      <Icon name="plus" className="size-4" />New batch
    </Link>
  );
}

/** Route `reimbursement-batch.create`: tick approved claims, see the sums, make the batch. */
export function NewBatch(_props: ScreenProps) {
  const [, navigate] = useLocation();
  // The approved claims not yet in a batch: a summary of the expenses (an expense decided refetches it).
  const { data, isError } = useQuery({
    queryKey: queryKeys.summary('expense', 'claimable'),
    queryFn: ({ signal }): Promise<Claim[]> => api.get<{ data: Claim[] }>('/reimbursement-batch/claimable', { signal }).then((answer) => answer.data),
  }, queryClient);
  // A failure was toasted by the wrapper: the list then shows as empty rather than loading forever.
  const claims = useMemo(() => data ?? (isError ? [] : null), [data, isError]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [isSaving, setSaving] = useState(false);
  const chosen = useMemo(() => (claims ?? []).filter((claim) => selected.has(claim.id)), [claims, selected]);
  const missing = [...new Set(chosen.filter((claim) => !claim.has_bank_details).map((claim) => claim.claimant))];

  const toggle = (claim: Claim) => setSelected((current) => {
    const next = new Set(current);
    if (next.has(claim.id)) next.delete(claim.id); else next.add(claim.id);
    return next;
  });
  const toggleAll = () => setSelected((current) => (claims && current.size === claims.length ? new Set() : new Set((claims ?? []).map((c) => c.id))));

  const create = async () => {
    setSaving(true);
    try {
      const answer = await api.post<{ data: Row; message: string }>('/reimbursement-batch', { expense_ids: [...selected] });
      notify.success(answer.message);
      invalidateAfterWrite('reimbursement-batch', answer.data.id as number);
      navigate(routePath('reimbursement-batch.show', { id: answer.data.id as number }));
    } catch { /* the wrapper reported it */ } finally { setSaving(false); }
  };

  const columns: TableColumn<Claim>[] = [
    { key: 'description', header: 'Claim', isPrimary: true, render: (c) => <Link href={routePath('expense.show', { id: c.id })} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">{c.description}</Link> },
    { key: 'claimant', header: 'Claimant', render: (c) => c.claimant },
    { key: 'expense_date', header: 'Date', render: (c) => <span className="tabular-nums">{c.expense_date}</span> },
    { key: 'amount', header: 'Amount', align: 'right', render: (c) => amountCell(c.amount, c.currency) },
    { key: 'bank', header: 'Bank details', render: (c) => (c.has_bank_details ? <Badge tone="green">On record</Badge> : <Badge tone="amber">Missing</Badge>) },
  ];

  return (
    <>
      <BackLink href={indexPath}>Back to reimbursement batches</BackLink>
      <PageHeader title="New reimbursement batch" description="Tick the approved claims to pay together. Each claim goes in one batch only." />
      <Card>
        {!claims && <TableSkeleton columns={5} />}
        {claims && claims.length === 0 && <EmptyState icon="inbox" title="No approved claims are waiting" description="Claims appear here once finance has approved them, until they are put in a batch." />}
        {claims && claims.length > 0 && (
          <DataTable caption="Approved claims not in a batch" columns={columns} rows={claims} rowKey={(c) => c.id}
            selection={{ isSelected: (c) => selected.has(c.id), onToggle: toggle, onToggleAll: toggleAll, label: (c) => `${c.description} of ${c.claimant}` }} />
        )}
      </Card>
      {chosen.length > 0 && (
        <div role="region" aria-label="Selected claims" className="sticky bottom-3 mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <p className="text-sm text-slate-700 dark:text-slate-200">
            <strong>{chosen.length === 1 ? '1 claim' : `${chosen.length} claims`}</strong> selected: <span className="tabular-nums">{sumsText(chosen)}</span>.
            {missing.length > 0 && <span className="block text-amber-800 dark:text-amber-300">{missing.join(', ')} {missing.length === 1 ? 'has' : 'have'} no bank details yet: the batch can be made, but not downloaded or paid until they are added.</span>}
          </p>
          <Button onClick={create} isLoading={isSaving}>Make batch</Button>
        </div>
      )}
    </>
  );
}

/** A batch's page below its fields: payees (the bank file's rows), claims, and what finance can do. */
export function BatchDetail({ row }: { row: Row }) {
  const id = row.id as number;
  // Part of the batch's record: paying, cancelling or a claimant's bank details saved refetch it.
  const { data = null } = useQuery({
    queryKey: queryKeys.recordPart('reimbursement-batch', id, 'claims'),
    queryFn: ({ signal }): Promise<BatchClaims> => api.get<{ data: BatchClaims }>(`/reimbursement-batch/${id}/claims`, { signal }).then((answer) => answer.data),
  }, queryClient);
  const [dialog, setDialog] = useState<'pay' | 'cancel' | { bankFor: Payee } | null>(null);
  const [isBusy, setBusy] = useState(false);

  const isOpen = row.status === 'open';
  const missing = [...new Set((data?.payees ?? []).filter((p) => !p.has_bank_details).map((p) => p.payee))];

  const download = async () => {
    setBusy(true);
    try {
      const blob = await api.get<Blob>(`/reimbursement-batch/${id}/bank-file`, { responseType: 'blob' });
      saveBlob(blob, `reimbursement-${String(row.reference)}.csv`);
    } catch { /* the wrapper reported the server's sentence */ } finally { setBusy(false); }
  };
  const cancel = async () => {
    setBusy(true);
    try {
      const answer = await api.post<{ message: string }>(`/reimbursement-batch/${id}/cancel`, {});
      notify.success(answer.message);
      setDialog(null);
      invalidateAfterWrite('reimbursement-batch', id);
    } catch { /* reported */ } finally { setBusy(false); }
  };

  const payeeColumns: TableColumn<Payee>[] = [
    { key: 'payee', header: 'Payee', isPrimary: true, render: (p) => p.payee },
    { key: 'currency', header: 'Currency', render: (p) => p.currency },
    { key: 'claims_count', header: 'Claims', align: 'right', render: (p) => <span className="tabular-nums">{p.claims_count}</span> },
    { key: 'amount', header: 'Amount', align: 'right', render: (p) => amountCell(p.amount, p.currency) },
    {
      key: 'bank', header: 'Bank details', render: (p) => (p.has_bank_details
        ? <Badge tone="green">On record</Badge>
        : (
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone="amber">Missing</Badge>
            {isOpen && <Button size="sm" variant="secondary" onClick={() => setDialog({ bankFor: p })}>Add bank details</Button>}
          </span>
        )),
    },
  ];
  const claimColumns: TableColumn<Claim>[] = [
    { key: 'description', header: 'Claim', isPrimary: true, render: (c) => <Link href={routePath('expense.show', { id: c.id })} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">{c.description}</Link> },
    { key: 'claimant', header: 'Claimant', render: (c) => c.claimant },
    { key: 'expense_date', header: 'Date', render: (c) => <span className="tabular-nums">{c.expense_date}</span> },
    { key: 'amount', header: 'Amount', align: 'right', render: (c) => amountCell(c.amount, c.currency) },
    { key: 'status', header: 'Status', render: (c) => { const state = workflowState(expenseWorkflow, c.status); return <Badge tone={state.tone}>{state.label}</Badge>; } },
  ];

  return (
    <div className="mt-6 space-y-6">
      <Card>
        <CardHeader id="batch-actions" title={isOpen ? 'Pay this batch' : 'Payment'}
          description={isOpen
            ? 'Download the bank file, upload it to the bank for a bulk transfer, then mark the batch paid with the bank\'s date and reference.'
            : row.status === 'paid'
              ? `Paid on ${String(row.paid_on)} with the bank's reference ${String(row.payment_reference)}. Its claims are reimbursed and their claimants were told.`
              : 'This batch was cancelled; its claims were freed for another batch.'} />
        {isOpen && missing.length > 0 && (
          <div className="px-5 pb-5"><FormAlert message={`${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no bank details yet, so the batch can be neither downloaded nor paid. Add them below, or ask ${missing.length === 1 ? 'them' : 'each of them'} to add them in their profile.`} /></div>
        )}
        {/* A row of its own under the words: three buttons do not fit beside them on a phone. */}
        {row.status !== 'cancelled' && (
          <div className="flex flex-wrap gap-2 px-5 pb-5">
            <Button variant="secondary" onClick={download} isLoading={isBusy && !dialog} disabled={missing.length > 0}>
              <Icon name="download" className="size-4" />Download CSV
            </Button>
            {isOpen && <Button onClick={() => setDialog('pay')} disabled={missing.length > 0}><Icon name="check" className="size-4" />Mark paid</Button>}
            {isOpen && <Button variant="danger" className="sm:ml-auto" onClick={() => setDialog('cancel')}>Cancel batch</Button>}
          </div>
        )}
      </Card>

      <Card>
        <CardHeader id="batch-payees" title="Payees" description={data ? `One bank transfer per payee and currency. In all: ${data.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ')}.` : undefined} />
        {!data ? <TableSkeleton columns={5} rows={2} /> : <DataTable caption="Payees of this batch" columns={payeeColumns} rows={data.payees} rowKey={(p) => `${p.user_id}-${p.currency}`} />}
      </Card>

      <Card>
        <CardHeader id="batch-claims" title="Claims" />
        {!data ? <TableSkeleton columns={5} rows={3} /> : <DataTable caption="Claims in this batch" columns={claimColumns} rows={data.claims} rowKey={(c) => c.id} />}
      </Card>

      <PayDialog open={dialog === 'pay'} id={id} reference={String(row.reference)} onClose={() => setDialog(null)} />
      <ConfirmDialog open={dialog === 'cancel'} title={`Cancel batch ${String(row.reference)}?`} tone="danger" confirmLabel="Cancel batch" cancelLabel="Keep it"
        message="Its claims stay approved and can go in a new batch. Do this if the bank file was not sent, or the bank refused it."
        isLoading={isBusy} onConfirm={cancel} onClose={() => setDialog(null)} />
      {typeof dialog === 'object' && dialog && (
        <Modal open title={`Bank details of ${dialog.bankFor.payee}`} onClose={() => setDialog(null)}>
          <BankDetailsForm userId={dialog.bankFor.user_id} isOwn={false} onCancel={() => setDialog(null)} onSaved={() => { setDialog(null); invalidateAfterWrite('reimbursement-batch', id); }} />
        </Modal>
      )}
    </div>
  );
}

function PayDialog({ open, id, reference, onClose }: { open: boolean; id: number; reference: string; onClose: () => void }) {
  const form = useForm({
    initial: { paid_on: today(), payment_reference: '' },
    schema: payBatchSchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>(`/reimbursement-batch/${id}/pay`, values, { form: true });
      notify.success(answer.message);
      onClose();
      invalidateAfterWrite('reimbursement-batch', id);
    },
  });
  const guard = useDirtyGuard(form.form.formState.isDirty && !form.form.formState.isSubmitSuccessful);
  return (
    <Modal open={open} title={`Mark batch ${reference} paid`} onClose={onClose}>
      <form noValidate onSubmit={form.handleSubmit} aria-label={`Mark batch ${reference} paid`} className="space-y-5 px-5 py-5">
        <FormAlert message={form.formError} />
        <p className="text-sm text-slate-600 dark:text-slate-300">Each claim becomes Reimbursed and its claimant is told the date and reference. This cannot be undone.</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <DateField name="paid_on" label="Paid on" required value={form.values.paid_on} errors={form.errors.paid_on}
            onChange={(value) => form.setValue('paid_on', value)} hint="The day the bank made the transfer" />
          <TextField label="Bank's payment reference" required {...form.field('payment_reference')} />
        </div>
        <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button variant="secondary" onClick={() => guard.confirm(onClose)} disabled={form.isSubmitting}>Cancel</Button>
          <Button type="submit" isLoading={form.isSubmitting}>Mark paid</Button>
        </div>
        {guard.prompt}
      </form>
    </Modal>
  );
}

/**
 * On a person's page, for finance only: the bank details their claims are paid to (the server
 * refuses everyone else, so nobody else is shown the card).
 */
export function PersonBankDetails({ userId }: { userId: number }) {
  const can = useCan('app');
  const self = useSnapshot(auth.app).user?.id;
  if (!can(REIMBURSE_PERMISSION) || self === userId) return null;
  return (
    <Card className="mt-6">
      <CardHeader id={`bank-${userId}`} title="Bank details" description="Where this person's reimbursed expense claims are paid. Only they and finance see this." />
      <BankDetailsForm userId={userId} isOwn={false} />
    </Card>
  );
}
