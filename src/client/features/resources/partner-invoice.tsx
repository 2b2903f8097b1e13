// Partner invoices beside the generic screens (issue 11): the total with its currency and the flag
// when it differs from the approved pre-billing, overdue due dates that stand out, the statement as
// its month, the partner's own words for each status (with the reason of a return or hold), and a
// form whose pre-billing picker offers only the statements the firm may invoice, prefilling the
// amount and currency from the one chosen. Lives beside the role form because the resource screen
// may not import another feature (eslint import-direction).
import { useRef, useState, type FormEvent } from 'react';
import {
  partnerInvoice, PARTNER_FRIENDLY_STATES, partnerStatusLabel, type PartnerInvoiceStatus,
} from '../../../shared/resources/partner-invoice';
import { formatMoney, monthLabel } from '../../../shared/resources/pre-billing';
import { api, isApiError, type FieldErrors } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { FormAlert } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { selectionProblems } from '../../ui/resources/file-field';
import { saveForm } from '../../ui/resources/resource-api';
import {
  buildPayload, FormFooter, ResourceField, schemaErrors, UploadProgress, useResourceFormState, type ResourceFormProps,
} from '../../ui/resources/resource-form';
import { currentArea, displayValue, EMPTY, formFieldKeys, resourceBase, workflowFor } from '../../ui/resources/resource-values';
import type { Row } from '../../ui/resources/use-resource-query';

const muted = 'text-slate-500 dark:text-slate-400';

function MismatchBadge() {
  return (
    <Badge tone="amber" className="gap-1">
      <Icon name="alert" className="size-3.5" aria-hidden="true" />Differs from pre-billing
    </Badge>
  );
}

function OverdueBadge() {
  return (
    <Badge tone="red" className="gap-1">
      <Icon name="clock" className="size-3.5" aria-hidden="true" />Overdue
    </Badge>
  );
}

/** The total with its currency; a total that is not the approved statement's says so right under it. */
export function InvoiceTotal({ row }: { row: Row }) {
  const total = typeof row.total === 'number' && typeof row.currency === 'string' ? formatMoney(row.total, row.currency) : String(row.total ?? EMPTY);
  return (
    // Block lines in an inline block follow the cell's alignment: right in the list, left on the detail page.
    <span className="inline-block">
      <span className="block font-medium whitespace-nowrap tabular-nums">{total}</span>
      {row.is_total_mismatch === true && <span className="mt-1 block"><MismatchBadge /></span>}
    </span>
  );
}

/** The amount or the tax with the invoice's currency ("EUR 5,000.00"), as the total reads. */
export function InvoiceMoney({ row, field }: { row: Row; field: 'amount' | 'tax' }) {
  const value = row[field];
  if (typeof value !== 'number') return <span className={muted}>{EMPTY}</span>;
  return <span className="whitespace-nowrap tabular-nums">{typeof row.currency === 'string' ? formatMoney(value, row.currency) : String(value)}</span>;
}

/** The due date, in red with a badge once it has passed unpaid: overdue invoices stand out in the list. */
export function InvoiceDueDate({ row }: { row: Row }) {
  const date = typeof row.due_date === 'string' ? formatDate(row.due_date) : EMPTY;
  if (row.is_overdue !== true) return <span className="tabular-nums">{date}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-semibold text-rose-700 tabular-nums dark:text-rose-300">{date}</span>
      <OverdueBadge />
    </span>
  );
}

/** The statement an invoice bills, named by its month ("March 2026"). */
export function InvoicePreBilling({ row }: { row: Row }) {
  const statement = row.pre_billing as { month?: string } | null | undefined;
  return <span>{statement?.month ? monthLabel(statement.month) : EMPTY}</span>;
}

/**
 * The status: staff read the workflow's own labels; the partner reads what it means for them
 * ("Being approved", "Paid on 2026-05-03", "Returned: please correct") and why it came back.
 */
export function InvoiceStatus({ row }: { row: Row }) {
  if (currentArea() !== 'partner') {
    return displayValue(partnerInvoice.fields.status, 'status', row, 'list', workflowFor(partnerInvoice, 'status'));
  }
  const state = PARTNER_FRIENDLY_STATES[String(row.status) as PartnerInvoiceStatus];
  return (
    <span className="inline-block max-w-xs">
      <Badge tone={state?.tone ?? 'gray'}>{partnerStatusLabel(row.status, row.payment_date)}</Badge>
      {typeof row.status_reason === 'string' && row.status_reason && (
        <span className={cx('mt-1 block text-xs whitespace-normal', muted)}>{row.status_reason}</span>
      )}
    </span>
  );
}

export function InvoiceMismatchFlag({ row }: { row: Row }) {
  if (row.is_total_mismatch !== true) return <span className={muted}>No</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <MismatchBadge />
      <span className="text-slate-600 dark:text-slate-300">{partnerInvoice.fields.is_total_mismatch.help}</span>
    </span>
  );
}

export function InvoiceOverdueFlag({ row }: { row: Row }) {
  return row.is_overdue === true ? <OverdueBadge /> : <span className={muted}>No</span>;
}

/** An approved statement the firm may invoice (GET …/billable). */
interface Billable { id: number; label: string; month: string; currency: string; total: number }

/** The statements the form offers: the portal's own list, or for staff editing, those of the invoice's firm. */
async function loadBillable(row: Row | null): Promise<Billable[]> {
  const url = currentArea() === 'partner' ? `${resourceBase(partnerInvoice)}/billable` : `${resourceBase(partnerInvoice)}/${String(row?.id)}/billable`;
  const params = currentArea() === 'partner' && row ? { invoice_id: String(row.id) } : undefined;
  const answer = await api.get<{ data: Billable[] }>(url, { params, silent: true });
  return answer.data;
}

const PRE_BILLING = 'pre_billing_id';

/**
 * The generic form with one field of its own: the pre-billing, picked among the firm's approved
 * statements no invoice bills yet; choosing one fills the amount (while the partner has not typed
 * another) and the currency.
 */
export function PartnerInvoiceForm({ definition, row, onSaved, onCancel, isDialog }: ResourceFormProps) {
  const form = useResourceFormState(definition, row);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const billable = useRef<Map<number, Billable>>(new Map());
  /** The amount the last chosen statement filled in: replaced by the next choice, a typed one never. */
  const prefilled = useRef<string | null>(null);
  const keys = formFieldKeys(definition);

  const load = async (search: string): Promise<ChoiceOption[]> => {
    const rows = await loadBillable(row);
    billable.current = new Map(rows.map((statement) => [statement.id, statement]));
    const term = search.trim().toLowerCase();
    return rows.filter((statement) => !term || statement.label.toLowerCase().includes(term)
      || monthLabel(statement.month).toLowerCase().includes(term))
      .map((statement) => ({ id: statement.id, label: `${monthLabel(statement.month)} · ${formatMoney(statement.total, statement.currency)}` }));
  };

  const onChoose = (choice: ChoiceOption | null) => {
    form.setChoice(PRE_BILLING, choice);
    const statement = choice ? billable.current.get(Number(choice.id)) : undefined;
    if (!statement) return;
    const amount = String(form.values.amount ?? '');
    if (!amount || amount === prefilled.current) {
      prefilled.current = String(statement.total);
      form.setValue('amount', prefilled.current);
    }
    form.setValue('currency', statement.currency);
  };

  const show = (found: FieldErrors, message?: string) => {
    form.setErrors(found);
    const unshown = Object.keys(found).filter((key) => !keys.includes(key.split('.')[0]));
    setFormError(unshown.length ? found[unshown[0]]?.[0] ?? message ?? null : null);
    const first = Object.keys(found).find((key) => keys.includes(key.split('.')[0]));
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.split('.')[0])}"]`)?.focus());
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const payload = buildPayload(definition, form.values, null);
    const parsed = definition.schema.safeParse(payload);
    const found: FieldErrors = parsed.success ? {} : schemaErrors(parsed.error);
    for (const [key, selection] of Object.entries(form.files)) {
      const problems = definition.fields[key].file ? selectionProblems(definition.fields[key].file, selection) : [];
      if (problems.length) found[key] = problems;
    }
    // The PDF is required (the server says so too); said here before anything is sent.
    const pdf = form.files.file;
    if (pdf && !pdf.kept.length && !pdf.added.length) found.file = ['The invoice PDF field is required.'];
    if (Object.keys(found).length) { show(found); return; }
    form.setErrors({});
    setFormError(null);
    setSubmitting(true);
    try {
      const answer = await saveForm(definition, payload, form.files, row, setProgress);
      onSaved(answer.data);
    } catch (error) {
      if (isApiError(error) && error.status === 422) show(error.errors, error.message);
      else if (!isApiError(error)) console.error(error);
    } finally {
      setSubmitting(false);
      setProgress(null);
    }
  };

  const isResubmission = row?.status === 'rejected';
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={`${row ? 'Edit' : 'Create'} invoice`} className={cx(isDialog && 'flex min-h-full flex-col')}>
      <div className="space-y-5 px-5 py-5">
        {isResubmission && typeof row.status_reason === 'string' && (
          <p className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2.5 text-sm text-rose-900 ring-1 ring-inset ring-rose-200 dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-500/30">
            <Icon name="alert" className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>Returned: {row.status_reason} Saving your correction submits the invoice again.</span>
          </p>
        )}
        <FormAlert message={formError} />
        <div className="grid gap-5 sm:grid-cols-2">
          {keys.map((key) => (
            <div key={key} className={cx(['file'].includes(definition.fields[key].input) && 'sm:col-span-2')}>
              {key === PRE_BILLING ? (
                <SearchableSelect name={key} label={definition.fields[key].label} hint={definition.fields[key].help} required
                  errors={form.errors[key]} value={(form.choices[key] as ChoiceOption | null) ?? null} onChange={onChoose} load={load}
                  placeholder="Choose an approved pre-billing…" />
              ) : <ResourceField definition={definition} fieldKey={key} form={form} />}
            </div>
          ))}
        </div>
        {progress !== null && <UploadProgress fraction={progress} />}
      </div>
      <FormFooter isDialog={isDialog}>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>{isResubmission ? 'Resubmit invoice' : row ? 'Save changes' : 'Submit invoice'}</Button>
      </FormFooter>
    </form>
  );
}
