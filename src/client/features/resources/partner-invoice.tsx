// Partner invoices beside the generic screens (issue 11): the net, tax and total with their currency,
// the net said against the approved pre-billing when it differs (once, issue 21), overdue due dates
// that stand out, the statement as its month, the partner's own words for each status (with the
// reason of a return or hold), the payments with what is outstanding and finance's "Record payment",
// and a form whose pre-billing picker offers only the statements the firm may invoice, prefilling the
// amount and currency from the one chosen. Lives beside the role form because the resource screen
// may not import another feature (eslint import-direction).
import { useRef, useState } from 'react';
import { useForm as useHookForm } from 'react-hook-form';
import { Link } from 'wouter';
import { formatMoney, parseMoney, subtractMoney } from '../../../shared/money';
import {
  partnerInvoice, PARTNER_FRIENDLY_STATES, PARTNER_INVOICE_PAY_PERMISSION, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, partnerStatusLabel,
  type PartnerInvoicePayment, type PartnerInvoiceStatus, preBillingDifference, recordPaymentSchema,
} from '../../../shared/resources/partner-invoice';
import { monthLabel, preBilling } from '../../../shared/resources/pre-billing';
import { today } from '../../../shared/dates';
import { api, type FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { invalidateAfterWrite } from '../../lib/query';
import { Card } from '../../ui/card';
import { DateField } from '../../ui/date-input';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Modal } from '../../ui/modal';
import { usePermissionCheck } from '../../ui/resources/resource-list';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { useFocusAfterChange } from '../../ui/focus-after-change';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { FormFooter, ResourceForm, type ResourceFormProps, type ResourceFormState } from '../../ui/resources/resource-form';
import { currentArea, displayValue, EMPTY, resourceBase, resourcePath, workflowFor } from '../../ui/resources/resource-values';
import type { Row } from '../../ui/resources/use-resource-query';

const muted = 'text-slate-500 dark:text-slate-400';


function OverdueBadge() {
  return (
    <Badge tone="red" className="gap-1">
      <Icon name="clock" className="size-3.5" aria-hidden="true" />Overdue
    </Badge>
  );
}

/** The total with tax, with its currency. */
export function InvoiceTotal({ row }: { row: Row }) {
  const total = typeof row.total === 'number' && typeof row.currency === 'string' ? formatMoney(row.total, row.currency) : String(row.total ?? EMPTY);
  return <span className="font-medium whitespace-nowrap tabular-nums">{total}</span>;
}

/** The difference from the pre-billing in full, and short for a list cell ("EUR 50.00 more than the pre-billing."). */
function netDifference(row: Row): { full: string; short: string } | null {
  const full = preBillingDifference(row);
  if (!full || typeof row.amount !== 'number' || typeof row.pre_billing_total !== 'number') return null;
  const gap = subtractMoney(row.amount, row.pre_billing_total);
  return { full, short: `${formatMoney(Math.abs(gap), String(row.currency ?? ''))} ${gap > 0 ? 'more' : 'less'} than the pre-billing.` };
}

/**
 * The net amount, compared like with like with the approved statement's total (issue 21): when they
 * differ it says so once, right under it, and by how much.
 */
export function InvoiceNet({ row }: { row: Row }) {
  const difference = netDifference(row);
  return (
    // Block lines in an inline block follow the cell's alignment: right in the list, left on the detail page.
    <span className="inline-block max-w-64">
      <InvoiceMoney row={row} field="amount" />
      {difference && (
        <span className="mt-1 flex items-start gap-1 text-xs whitespace-normal text-amber-800 dark:text-amber-300">
          <Icon name="alert" className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          {/* A list cell (td) says it short, with the whole sentence on hover; the detail page says it whole. */}
          <span className="in-[td]:hidden" data-testid="net-difference">{difference.full}</span>
          <span className="hidden in-[td]:inline" title={difference.full}>{difference.short}</span>
        </span>
      )}
    </span>
  );
}

/** A money field of the invoice with its currency ("EUR 5,000.00"), as the total reads. */
export function InvoiceMoney({ row, field }: { row: Row; field: 'amount' | 'tax' | 'amount_paid' | 'outstanding' }) {
  const value = row[field];
  if (typeof value !== 'number') return <span className={muted}>{EMPTY}</span>;
  return <span className="block whitespace-nowrap tabular-nums">{typeof row.currency === 'string' ? formatMoney(value, row.currency) : String(value)}</span>;
}

/** The due date, in red with a badge once it has passed unpaid: overdue invoices stand out in the list. */
export function InvoiceDueDate({ row }: { row: Row }) {
  const date = typeof row.due_date === 'string' ? formatDate(row.due_date) : EMPTY;
  // A day never breaks at its hyphen ("2021-03-" over "03") in a squeezed column.
  if (row.is_overdue !== true) return <span className="whitespace-nowrap tabular-nums">{date}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-semibold whitespace-nowrap text-rose-700 tabular-nums dark:text-rose-300">{date}</span>
      <OverdueBadge />
    </span>
  );
}

/** The statement an invoice bills, named by its month ("March 2026"), linked to it for those who may open it. */
export function InvoicePreBilling({ row }: { row: Row }) {
  const can = usePermissionCheck(currentArea() === 'partner' ? 'partner' : 'app');
  const statement = row.pre_billing as { id?: number; month?: string } | null | undefined;
  if (!statement?.month) return <span>{EMPTY}</span>;
  const id = statement.id ?? (typeof row.pre_billing_id === 'number' ? row.pre_billing_id : null);
  const href = id !== null && can(preBilling.permissions.view) ? resourcePath(preBilling, 'show', { id }) : null;
  return href
    ? <Link href={href} className={cx('rounded font-medium text-indigo-600 hover:underline dark:text-indigo-400', focusRing)}>{monthLabel(statement.month)}</Link>
    : <span>{monthLabel(statement.month)}</span>;
}

/**
 * The status: staff read the workflow's own labels; the partner reads what it means for them
 * ("Approved by manager" with what comes next, "Paid on 2026-05-03", "Returned: please correct") and why it came back.
 */
export function InvoiceStatus({ row }: { row: Row }) {
  if (currentArea() !== 'partner') {
    return displayValue(partnerInvoice.fields.status, 'status', row, 'list', workflowFor(partnerInvoice, 'status'));
  }
  const state = PARTNER_FRIENDLY_STATES[String(row.status) as PartnerInvoiceStatus];
  const reason = typeof row.status_reason === 'string' && row.status_reason ? row.status_reason : null;
  return (
    <span className="inline-block max-w-xs">
      <Badge tone={state?.tone ?? 'gray'} canWrap>{partnerStatusLabel(row.status, row.payment_date, row.amount_paid)}</Badge>
      {/* What the partner waits for sits beside the status, never in place of its colour (issue 24). */}
      {(reason ?? state?.step) && <span className={cx('mt-1 block text-xs whitespace-normal', muted)}>{reason ?? state?.step}</span>}
    </span>
  );
}

export function InvoiceOverdueFlag({ row }: { row: Row }) {
  return row.is_overdue === true ? <OverdueBadge /> : <span className={muted}>No</span>;
}

/** An approved statement the firm may invoice (GET …/billable). */
interface Billable { id: number; label: string; month: string; currency: string; total: number; is_supplementary: boolean }

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
export function PartnerInvoiceForm(props: ResourceFormProps) {
  const { definition, row } = props;
  const billable = useRef<Map<number, Billable>>(new Map());
  /** The amount the last chosen statement filled in: replaced by the next choice, a typed one never. */
  const prefilled = useRef<string | null>(null);

  const load = async (search: string): Promise<ChoiceOption[]> => {
    const rows = await loadBillable(row);
    billable.current = new Map(rows.map((statement) => [statement.id, statement]));
    const term = search.trim().toLowerCase();
    return rows.filter((statement) => !term || statement.label.toLowerCase().includes(term)
      || monthLabel(statement.month).toLowerCase().includes(term))
      .map((statement) => ({ id: statement.id, label: `${monthLabel(statement.month)}${statement.is_supplementary ? ' (supplementary)' : ''} · ${formatMoney(statement.total, statement.currency)} net` }));
  };

  const onChoose = (form: ResourceFormState, choice: ChoiceOption | null) => {
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

  const isResubmission = row?.status === 'rejected';
  return (
    <ResourceForm {...props} label="invoice" submitLabel={isResubmission ? 'Resubmit invoice' : row ? 'Save changes' : 'Submit invoice'}
      // The PDF is required (the server says so too); said here before anything is sent.
      validate={(_payload, form): FieldErrors => {
        const pdf = form.files.file;
        return pdf && !pdf.kept.length && !pdf.added.length ? { file: ['The invoice PDF field is required.'] } : {};
      }}
      renderField={(key, form) => (key === PRE_BILLING ? (
        <SearchableSelect name={key} label={definition.fields[key].label} hint={definition.fields[key].help} required
          errors={form.errors[key]} value={(form.choices[key] as ChoiceOption | null) ?? null} onChange={(choice) => onChoose(form, choice)} load={load}
          placeholder="Choose an approved pre-billing…" />
      ) : undefined)}
      layout={({ field, keys }) => (
        <>
          {isResubmission && typeof row.status_reason === 'string' && (
            <p className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2.5 text-sm text-rose-900 ring-1 ring-inset ring-rose-200 dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-500/30">
              <Icon name="alert" className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>Returned: {row.status_reason} Saving your correction submits the invoice again.</span>
            </p>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            {keys.map((key) => <div key={key} className={cx(definition.fields[key].input === 'file' && 'sm:col-span-2')}>{field(key)}</div>)}
          </div>
        </>
      )} />
  );
}

// ---- Payments (issue 21) ----

const paymentsOf = (row: Row): PartnerInvoicePayment[] => (Array.isArray(row.payments) ? row.payments as PartnerInvoicePayment[] : []);

/**
 * Below the invoice: what was paid and what is outstanding, each payment with its date, method and
 * reference (the partner's remittance advice), and for finance on an approved invoice "Record payment".
 */
export function InvoicePayments({ row }: { row: Row }) {
  const area = currentArea() === 'partner' ? 'partner' : 'app';
  const can = usePermissionCheck(area);
  const [isRecording, setRecording] = useState(false);
  // Once a payment is recorded focus goes to the summary, which reads what is now paid and outstanding
  // (a payment in full takes the Record payment button away).
  const [recordedCount, setRecordedCount] = useState(0);
  const summaryRef = useFocusAfterChange<HTMLParagraphElement>(recordedCount);
  const currency = String(row.currency ?? '');
  const payments = paymentsOf(row);
  const total = Number(row.total ?? 0);
  const outstanding = Number(row.outstanding ?? total);
  const canRecord = area === 'app' && row.status === 'approved' && can(PARTNER_INVOICE_PAY_PERMISSION) && outstanding > 0;
  const summary = row.status === 'paid'
    ? `Paid in full: ${formatMoney(total, currency)} with tax${payments.length > 1 ? ` in ${payments.length} payments` : ''}.`
    : payments.length
      ? `${formatMoney(Number(row.amount_paid ?? 0), currency)} paid of ${formatMoney(total, currency)} with tax; ${formatMoney(outstanding, currency)} outstanding.`
      : `Nothing paid yet: ${formatMoney(total, currency)} with tax outstanding.`;
  return (
    <Card className="mt-6" aria-labelledby={`payments-${String(row.id)}`}>
      <div className="flex flex-col gap-3 border-b border-slate-200 px-5 py-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
        <div>
          <h2 id={`payments-${String(row.id)}`} className="text-base font-semibold text-slate-900 dark:text-white">Payments</h2>
          <p ref={summaryRef} tabIndex={-1} className="mt-1 text-sm text-slate-600 outline-none dark:text-slate-300" data-testid="payment-summary">{summary}</p>
        </div>
        {canRecord && <Button onClick={() => setRecording(true)}><Icon name="plus" className="size-4" />Record payment</Button>}
      </div>
      {payments.length === 0
        ? <p className={cx('px-5 py-4 text-sm', muted)}>{row.status === 'approved' ? 'Payments will be listed here as finance records them.' : 'An invoice is paid once it is approved.'}</p>
        : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="payments">
            {payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-3 text-sm">
                <span className="text-slate-900 dark:text-white">
                  <span className="font-medium tabular-nums">{formatMoney(payment.amount, currency)}</span>
                  <span className={muted}> by {PAYMENT_METHOD_LABELS[payment.method].toLowerCase()}, reference </span>
                  <span className="font-medium break-words">{payment.reference}</span>
                </span>
                <time dateTime={payment.payment_date} className={cx('tabular-nums', muted)}>{formatDate(payment.payment_date)}</time>
              </li>
            ))}
          </ul>
        )}
      {canRecord && (
        <RecordPaymentDialog open={isRecording} row={row} outstanding={outstanding} onClose={() => setRecording(false)}
          onRecorded={() => setRecordedCount((count) => count + 1)} />
      )}
    </Card>
  );
}

/** Finance's form: the date (today), the amount (what is outstanding), the method and the reference. */
interface PaymentValues { payment_date: string; amount: string; method: string; reference: string }

const paymentPayload = (values: PaymentValues) =>
  ({ payment_date: values.payment_date, amount: parseMoney(values.amount) ?? Number.NaN, method: values.method, reference: values.reference.trim() });

function RecordPaymentDialog({ open, row, outstanding, onClose, onRecorded }: { open: boolean; row: Row; outstanding: number; onClose: () => void; onRecorded: () => void }) {
  const currency = String(row.currency ?? '');
  const form = useHookForm<PaymentValues>({
    defaultValues: { payment_date: today(), amount: outstanding.toFixed(2), method: 'bank transfer', reference: '' },
    resolver: payloadResolver<PaymentValues>(recordPaymentSchema, paymentPayload, (values): FieldErrors => {
      const typed = parseMoney(values.amount);
      if (typed === null) return { amount: ['The amount must be a number with at most 2 decimals, such as 4320.00.'] };
      if (typed > outstanding) return { amount: [`The payment of ${formatMoney(typed, currency)} is more than the ${formatMoney(outstanding, currency)} outstanding on this invoice.`] };
      return {};
    }),
  });
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const set = (key: keyof PaymentValues, value: string) => { form.setValue(key, value, { shouldDirty: true }); form.clearErrors(key); };

  const onSubmit = form.handleSubmit((checked) => submitForm(form,
    () => api.post<{ message: string }>(`${resourceBase(partnerInvoice)}/${String(row.id)}/payments`, paymentPayload(checked), { form: true }), {
      onSaved: (answer) => {
        notify.success(answer.message);
        onClose();
        onRecorded();
        // The invoice, its outstanding and its history are read again (and the lists and figures counting it).
        invalidateAfterWrite(partnerInvoice.name, Number(row.id));
      },
    }));

  return (
    <Modal open={open} title={`Record a payment for invoice ${String(row.invoice_number ?? '')}`} onClose={() => { if (!isSubmitting) onClose(); }}>
      <form noValidate onSubmit={onSubmit} aria-label="Record payment">
        <div className="space-y-5 px-5 py-5">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {formatMoney(outstanding, currency)} is outstanding (tax included). The invoice becomes paid when its payments reach {formatMoney(Number(row.total ?? 0), currency)}.
          </p>
          <FormAlert message={formMessage(form)} />
          <div className="grid gap-5 sm:grid-cols-2">
            <DateField name="payment_date" label="Payment date" required value={values.payment_date} onChange={(value) => set('payment_date', value)} errors={errors.payment_date} />
            <TextField name="amount" label={`Amount (${currency})`} required inputMode="decimal" autoComplete="off" value={values.amount}
              errors={errors.amount} onChange={(event) => set('amount', event.target.value)} hint="With tax. Less than the outstanding for a part payment." />
            <SelectField name="method" label="Method" required value={values.method} onChange={(event) => set('method', event.target.value)} errors={errors.method}
              options={PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }))} />
            <TextField name="reference" label="Reference" required maxLength={100} autoComplete="off" value={values.reference} placeholder="e.g. RT-5521"
              errors={errors.reference} onChange={(event) => set('reference', event.target.value)} hint="The bank's or the cheque's reference: the partner sees it." />
          </div>
        </div>
        <FormFooter isDialog>
          <Button variant="secondary" onClick={() => guard.confirm(onClose)} disabled={isSubmitting}>Cancel</Button>
          <Button type="submit" isLoading={isSubmitting}>Record payment</Button>
        </FormFooter>
        {guard.prompt}
      </form>
    </Modal>
  );
}
