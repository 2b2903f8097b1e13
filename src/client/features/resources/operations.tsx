// Onboarding and contracts beside the generic screens (issue 13): the spec §5 timing of checklist
// tasks, contract values with their currency, and recording the new PO that replaces a contract.
// Lives beside the resource screen, which may not import another feature (eslint import-direction).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { addDays } from '../../../shared/dates';
import { daysLateText } from '../../../shared/rules';
import { contract, CONTRACT_CURRENCIES, contractWorkflow, newPoSchema } from '../../../shared/resources/contract';
import { workflowState } from '../../../shared/resources/define';
import { formatMoney } from '../../../shared/resources/expense';
import { api } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { notify } from '../../lib/toast';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { DateField } from '../../ui/date-input';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Modal } from '../../ui/modal';
import { buildMultipart, type SaveAnswer } from '../../ui/resources/resource-api';
import { resourcePath } from '../../ui/resources/resource-values';
import type { Row } from '../../ui/resources/use-resource-query';

const muted = <span className="text-slate-400 dark:text-slate-500">—</span>;

/** spec §5 countdown of a pending task due within 5 days ("3 days left", "Due today"), amber on its last two days. */
export function TaskDueIn({ row }: { row: Row }) {
  if (typeof row.due_in !== 'string') return muted;
  const left = Number.parseInt(row.due_in, 10);
  return <Badge tone={Number.isNaN(left) || left <= 1 ? 'amber' : 'gray'} className="whitespace-nowrap">{row.due_in}</Badge>;
}

/** Days overdue (spec §5): red while a pending task is late, plain for a task done late. */
export function TaskDaysOverdue({ row }: { row: Row }) {
  const days = typeof row.days_overdue === 'number' ? row.days_overdue : 0;
  if (days === 0) return <span className="text-slate-500 tabular-nums dark:text-slate-400">0</span>;
  if (row.status !== 'pending') return <span className="tabular-nums">{days}</span>;
  return (
    <Badge tone="red" className="gap-1 whitespace-nowrap tabular-nums">
      <Icon name="alert" className="size-3.5" aria-hidden="true" />{daysLateText(days)}
    </Badge>
  );
}

/** An onboarding's overdue count, red when there is any. */
export function OverdueCount({ row }: { row: Row }) {
  const n = typeof row.overdue_tasks === 'number' ? row.overdue_tasks : 0;
  return n ? <Badge tone="red">{n} overdue</Badge> : <span className="text-slate-500 tabular-nums dark:text-slate-400">0</span>;
}

export function ContractValue({ row }: { row: Row }) {
  if (typeof row.value !== 'number' || typeof row.currency !== 'string') return muted;
  return <span className="font-medium whitespace-nowrap tabular-nums">{formatMoney(row.value, row.currency)}</span>;
}

const currencyOptions = CONTRACT_CURRENCIES.map((code) => ({ value: code, label: code }));
// The new PO takes over the day after the old one ends (issue 21): one PO at a time.
const emptyPo = (row: Row) => ({
  po_number: '', start_date: typeof row.end_date === 'string' ? addDays(row.end_date, 1) : '', end_date: '', value: '', currency: String(row.currency ?? 'INR'), notes: '',
});

/**
 * A contract's spec §4 status, and what it does not say: a PO not started yet reads as starting on
 * its date (starts_on); a running one already renewed names the PO that follows it (status_note).
 */
export function ContractStatus({ row }: { row: Row }) {
  const state = workflowState(contractWorkflow, String(row.status ?? ''));
  if (typeof row.starts_on === 'string') return <Badge tone="indigo">Starts on {row.starts_on}</Badge>;
  const note = typeof row.status_note === 'string' ? row.status_note : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge tone={state.tone ?? 'gray'} canWrap>{state.label}</Badge>
      {note && <span className="text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">{note}</span>}
    </span>
  );
}

/**
 * Below a contract that may still be renewed: record the client's new PO. The new PO becomes a
 * contract of its own, starting after this one ends; this one runs until its end date and then
 * turns 'Expired New PO Released' (POST /api/contract/{id}/new-po).
 */
export function ContractNewPo({ row }: { row: Row }) {
  const [isOpen, setOpen] = useState(false);
  if (row.can_release_new_po !== true) return null;

  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-4 p-5">
        <div className="min-w-0 flex-1 basis-64">
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">New PO</h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            When the client sends the next purchase order, record it here: it becomes a contract of its own from the day after this one ends, and this one turns “Expired New PO Released” on its end date.
          </p>
        </div>
        <Button className="shrink-0 whitespace-nowrap" onClick={() => setOpen(true)}>Release new PO</Button>
      </div>
      <Modal open={isOpen} title={`New PO for ${String(row.po_number)}`} onClose={() => setOpen(false)}>
        {isOpen && <NewPoForm row={row} onClose={() => setOpen(false)} />}
      </Modal>
    </Card>
  );
}

type PoValues = ReturnType<typeof emptyPo> & { document: File | null };

const poPayload = ({ document: _document, ...values }: PoValues) =>
  ({ ...values, value: values.value === '' ? null : Number(values.value.replace(',', '.')), notes: values.notes.trim() || null });

/** The new PO's fields, opened empty each time (the contract's currency and the day after it ends). */
function NewPoForm({ row, onClose }: { row: Row; onClose: () => void }) {
  const form = useForm<PoValues>({ defaultValues: { ...emptyPo(row), document: null }, resolver: payloadResolver<PoValues>(newPoSchema, poPayload) });
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const [, navigate] = useLocation();
  const set = <K extends keyof PoValues>(key: K) => (value: PoValues[K]) => { form.setValue(key, value as never, { shouldDirty: true }); form.clearErrors(key); };

  const onSubmit = form.handleSubmit((checked) => submitForm(form, () => {
    const body = buildMultipart(contract, poPayload(checked), { document: { kept: [], added: checked.document ? [checked.document] : [] } }, false);
    return api.post<SaveAnswer>(`/contract/${String(row.id)}/new-po`, body, { form: true });
  }, {
    onSaved: (answer) => {
      if (answer.message) notify.success(answer.message);
      onClose();
      navigate(resourcePath(contract, 'show', { id: answer.data.id }) ?? '/contract');
    },
  }));

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 p-5 sm:grid-cols-2">
      <div className="sm:col-span-2"><FormAlert message={formMessage(form)} /></div>
      <div className="sm:col-span-2">
        <TextField name="po_number" label="New PO number" required value={values.po_number} onChange={(e) => set('po_number')(e.target.value)} errors={errors.po_number} autoComplete="off" />
      </div>
      <DateField name="start_date" label="Start date" required value={values.start_date} onChange={set('start_date')} errors={errors.start_date} />
      <DateField name="end_date" label="End (expiry) date" required value={values.end_date} onChange={set('end_date')} errors={errors.end_date} />
      <TextField name="value" label="Value" required inputMode="decimal" value={values.value} onChange={(e) => set('value')(e.target.value)} errors={errors.value} />
      <SelectField name="currency" label="Currency" required options={currencyOptions} value={values.currency} onChange={(e) => set('currency')(e.target.value)} errors={errors.currency} />
      <div className="sm:col-span-2">
        <TextField name="document" label="Document" type="file" accept=".pdf,.png,.jpg,.jpeg" errors={errors.document}
          hint="The new PO or the signed contract (PDF or image)." onChange={(e) => set('document')(e.target.files?.[0] ?? null)} />
      </div>
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={() => guard.confirm(onClose)} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>Release new PO</Button>
      </div>
      {guard.prompt}
    </form>
  );
}
