// Pre-billing beside the generic screens (issue 11): the partner's statement form with its lines
// editor, the month and total as people read them, and on the detail page the reason of a return
// (the states themselves read in the partner's words through `owner.states`), the lines (beside the
// firm's approved time-sheet hours for staff, differences highlighted) and the earlier versions.
// Lives beside the other resource customisations because the resource screen may not import another
// feature (eslint import-direction).
import { useEffect, useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { Link } from 'wouter';
import { abilitiesOf, type ResourceDefinition } from '../../../shared/resources/define';
import {
  formatMoney, HOURS_PER_DAY, monthLabel, parsePreBillingLines, preBilling,
  type PreBillingComparison, type PreBillingLine, type PreBillingVersion,
} from '../../../shared/resources/pre-billing';
import { partnerEngineer } from '../../../shared/resources/partner-engineer';
import { partnerInvoice } from '../../../shared/resources/partner-invoice';
import { api, isApiError, type FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { focusField, formMessage, submitForm } from '../../lib/form';
import { queryClient, queryKeys } from '../../lib/query';
import { flattenErrors, hookErrors } from '../../lib/form-errors';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { FormAlert, inputClass, invalidInputClass, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { SwitchField } from '../../ui/switch-field';
import { TextAreaField } from '../../ui/textarea-field';
import { FileField, selectionProblems } from '../../ui/resources/file-field';
import {
  loadOptions, queuedItemOf, saveForm, useHistory, type FileSelection,
} from '../../ui/resources/resource-api';
import { FormFooter, UploadProgress, type ResourceFormProps } from '../../ui/resources/resource-form';
import { attachmentsOf, currentArea, resourceBase, resourcePath } from '../../ui/resources/resource-values';
import type { Row } from '../../ui/resources/use-resource-query';
import { usePermissionCheck } from '../../ui/resources/resource-list';

const hours = (value: number) => `${value.toLocaleString('en', { maximumFractionDigits: 2 })} h`;
const quantityText = (quantity: number, rateType: string) =>
  `${quantity.toLocaleString('en', { maximumFractionDigits: 2 })} ${rateType === 'day' ? (quantity === 1 ? 'day' : 'days') : (quantity === 1 ? 'hour' : 'hours')}`;
const linesOf = (row: Row): PreBillingLine[] => (Array.isArray(row.lines) ? row.lines as PreBillingLine[] : []);
const isPartnerArea = () => currentArea() === 'partner';

// ---- Cells ----

/** Whether the statement supplements the month's approved one (issue 21: a forgotten line). */
const isSupplementary = (row: Row) => typeof row.supplements_id === 'number';

export function PreBillingMonth({ row }: { row: Row }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-medium whitespace-nowrap">{monthLabel(row.month)}</span>
      {isSupplementary(row) && <Badge tone="gray">Supplementary</Badge>}
    </span>
  );
}

/** The approved statement a supplementary one adds to, by its month, linked (the reference alone reads as a bare date). */
export function PreBillingSupplements({ row }: { row: Row }) {
  const original = row.supplements as { id?: number; month?: string } | null | undefined;
  if (!original?.id) return <span className="text-slate-500 dark:text-slate-400">No: this is the month&apos;s own statement</span>;
  const href = resourcePath(preBilling, 'show', { id: original.id });
  const text = `The approved statement for ${monthLabel(original.month)}`;
  return href ? <Link href={href} className={cx('rounded font-medium text-indigo-600 hover:underline dark:text-indigo-400', focusRing)}>{text}</Link> : <span>{text}</span>;
}

/** The detail page's title: the month as people say it ("October 2026"), and for staff whose statement it is. */
export function preBillingTitle(row: Row): string {
  const partner = row.partner as { name?: unknown } | null | undefined;
  const firm = !isPartnerArea() && typeof partner?.name === 'string' ? partner.name : '';
  return [`${monthLabel(row.month)}${isSupplementary(row) ? ' (supplementary)' : ''}`, firm].filter(Boolean).join(' · ');
}

export function PreBillingTotal({ row }: { row: Row }) {
  const lines = linesOf(row).length;
  return (
    <span className="inline-block">
      <span className="block font-medium whitespace-nowrap tabular-nums">{formatMoney(Number(row.total ?? 0), String(row.currency ?? ''))}</span>
      <span className="block text-xs text-slate-500 dark:text-slate-400">{lines === 1 ? '1 line' : `${lines} lines`}</span>
    </span>
  );
}

// ---- The form (partner portal) ----

interface LineDraft { engineer: ChoiceOption | null; client: ChoiceOption | null; quantity: string }
interface PreBillingValues { month: string; currency: string; note: string; is_supplementary: boolean; spreadsheet: FileSelection; lines: LineDraft[] }

const emptyLine = (): LineDraft => ({ engineer: null, client: null, quantity: '' });
const draftOf = (line: PreBillingLine): LineDraft => ({
  engineer: { id: line.engineer_id, label: line.engineer?.name ?? `#${line.engineer_id}` },
  client: { id: line.client_id, label: line.client?.name ?? `#${line.client_id}` }, quantity: String(line.quantity),
});
/** GET /partner/client/options through loadOptions: kept for offline use like every picker's (issue 26). */
const loadClients = (search: string): Promise<ChoiceOption[]> => loadOptions('partner/client', search);

/** The lines as the server reads them: ids and a number (or null where a line is not filled in). */
const typedLines = (lines: LineDraft[]) => lines.map((line) => ({
  engineer_id: line.engineer ? Number(line.engineer.id) : null,
  client_id: line.client ? Number(line.client.id) : null,
  quantity: line.quantity.trim() === '' ? null : Number(line.quantity.replace(',', '.')),
}));
const payloadOf = (values: PreBillingValues) => ({
  month: values.month.trim(), currency: values.currency.trim().toUpperCase(), note: values.note.trim() || null,
  lines: typedLines(values.lines), ...(values.is_supplementary ? { is_supplementary: true } : {}),
});

/** The statement's checks: the definition's schema, the lines one by one (`lines.2.quantity`), the spreadsheet. */
function preBillingResolver(definition: ResourceDefinition): Resolver<PreBillingValues> {
  return async (values) => {
    const payload = payloadOf(values);
    const found: FieldErrors = {};
    const parsed = definition.schema.safeParse(payload);
    if (!parsed.success) for (const issue of parsed.error.issues) if (issue.path[0] !== 'lines') (found[String(issue.path[0])] ??= []).push(issue.message);
    for (const [key, message] of Object.entries(parsePreBillingLines(payload.lines).errors)) found[key] = [message];
    const problems = selectionProblems(definition.fields.spreadsheet.file!, values.spreadsheet);
    if (problems.length) found.spreadsheet = problems;
    else if (!values.spreadsheet.kept.length && !values.spreadsheet.added.length) found.spreadsheet = ['Attach the statement\'s spreadsheet (xlsx, xls, csv or pdf).'];
    return Object.keys(found).length ? { values: {}, errors: hookErrors(found) as never } : { values, errors: {} };
  };
}

/** The currencies of the rates agreed for the partner's engineers (`/partner/engineer`), for a new statement's default. */
function useAgreedCurrencies(isEnabled: boolean): string[] | null {
  const base = resourceBase(partnerEngineer);
  const params = { per_page: 100 };
  const { data } = useQuery({
    queryKey: queryKeys.list(partnerEngineer.name, { base, ...params }),
    queryFn: ({ signal }) => api.get<{ data: Row[] }>(base, { params, silent: true, signal }).then((answer) => answer.data),
    enabled: isEnabled && currentArea() === 'partner',
  }, queryClient);
  return data ? [...new Set(data.map((rate) => String(rate.currency ?? '')).filter(Boolean))].sort() : null;
}

/**
 * The statement: its month, currency, note, spreadsheet and lines (a field array). Rates and amounts are the
 * server's (the rate agreed for each engineer in the month); 422 errors land under their line.
 */
export function PreBillingForm({ definition, row, onSaved, onCancel, isDialog }: ResourceFormProps) {
  const form = useForm<PreBillingValues>({
    defaultValues: {
      month: typeof row?.month === 'string' ? row.month.slice(0, 7) : '',
      currency: typeof row?.currency === 'string' ? row.currency : '',
      note: typeof row?.note === 'string' ? row.note : '',
      is_supplementary: false,
      // A statement opened from the outbox (issue 26) brings the spreadsheet it queued.
      spreadsheet: { kept: row ? attachmentsOf(row, 'spreadsheet') : [], added: queuedItemOf(row)?.files.spreadsheet ?? [] },
      lines: row && linesOf(row).length ? linesOf(row).map(draftOf) : [emptyLine()],
    },
    resolver: preBillingResolver(definition),
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const [progress, setProgress] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusAfterAdd = useRef<number | null>(null);
  const isResubmission = row?.status === 'rejected';

  useEffect(() => {
    if (focusAfterAdd.current === null) return;
    formRef.current?.querySelector<HTMLElement>(`[data-field="lines.${focusAfterAdd.current}.engineer_id"]`)?.focus();
    focusAfterAdd.current = null;
  }, [lines.fields.length]);

  const set = <K extends 'month' | 'currency' | 'note' | 'is_supplementary' | 'spreadsheet'>(key: K, value: PreBillingValues[K]) => {
    form.setValue(key, value as never, { shouldDirty: true });
    form.clearErrors(key);
  };
  const updateLine = (index: number, change: Partial<LineDraft>) => {
    for (const [key, value] of Object.entries(change)) {
      form.setValue(`lines.${index}.${key as keyof LineDraft}`, value as never, { shouldDirty: true });
      form.clearErrors(`lines.${index}.${key === 'engineer' ? 'engineer_id' : key === 'client' ? 'client_id' : key}` as never);
    }
  };
  const addLine = () => { focusAfterAdd.current = lines.fields.length; lines.append(emptyLine(), { shouldFocus: false }); form.clearErrors('lines'); };

  const onSubmit = form.handleSubmit(async (checked) => {
    const payload = payloadOf(checked);
    try {
      // Multipart carries the lines as one JSON part (spec §7 bracketed keys would need a part per value).
      await submitForm(form, () => saveForm(definition, payload, { spreadsheet: checked.spreadsheet }, row, setProgress, { ...payload, lines: JSON.stringify(payload.lines) }),
        { onSaved: (answer) => onSaved(answer.data) });
    } finally {
      setProgress(null);
    }
  }, (found) => {
    // The fields here are controlled, not registered, so react-hook-form focuses none of them: the
    // first one refused (month, currency, a line, the spreadsheet, in the form's order) takes focus.
    const first = Object.keys(flattenErrors(found))[0];
    if (first && formRef.current) focusField(first, formRef.current);
  });

  const agreed = useAgreedCurrencies(!row);
  // Issue 24: a new statement starts in the currency its rates are agreed in (a real value, not a
  // placeholder that looks like one); with rates in several currencies the partner chooses.
  const agreedDefault = agreed?.length === 1 ? agreed[0] : null;
  // setValue, not resetField: the currency is a controlled field, never registered, and resetField
  // leaves an unregistered field as it is (the currency stayed empty). Not marked dirty: nothing typed.
  useEffect(() => {
    if (agreedDefault && form.getValues('currency') === '') form.setValue('currency', agreedDefault);
  }, [agreedDefault, form]);
  const currencyHint = agreed && agreed.length > 1
    ? `Your rates are agreed in ${agreed.join(' and ')}: one currency per statement.`
    : definition.fields.currency.help;

  const reason = useReturnReason(definition, row);
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={`${row ? 'Correct' : 'Submit'} pre-billing`} className={cx(isDialog && 'flex min-h-full flex-col')}>
      <div className="space-y-5 px-5 py-5">
        {isResubmission && (
          <p className="rounded-lg bg-rose-50 px-3 py-2.5 text-sm text-rose-900 ring-1 ring-inset ring-rose-200 dark:bg-rose-500/10 dark:text-rose-100 dark:ring-rose-500/30">
            <strong className="font-semibold">Returned for correction.</strong>{reason ? <> Reason: “{reason}”.</> : null} Saving submits it again as version {Number(row?.version ?? 1) + 1}; the current one is kept.
          </p>
        )}
        <FormAlert message={formMessage(form)} />
        {row && isSupplementary(row) && (
          <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-700">
            A supplementary statement: it adds forgotten lines to the approved statement for {monthLabel(row.month)}.
          </p>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="month" data-field="month" label="Month" type="month" required value={values.month} placeholder="YYYY-MM"
            errors={errors.month} hint={definition.fields.month.help} onChange={(event) => set('month', event.target.value)} />
          <TextField name="currency" data-field="currency" label="Currency" required value={values.currency} maxLength={3} autoComplete="off"
            className="uppercase" errors={errors.currency} hint={currencyHint}
            onChange={(event) => set('currency', event.target.value.toUpperCase())} />
        </div>
        {/* Below the month it concerns: most statements are ordinary ones. */}
        {!row && (
          <SwitchField name="is_supplementary" label={definition.fields.is_supplementary.label} checked={values.is_supplementary} onChange={(on) => set('is_supplementary', on)}
            description="For a line forgotten in a month whose statement is already approved. It is linked to that statement and checked with it against the same time sheets." />
        )}

        <fieldset className="space-y-3" aria-describedby="pre-billing-lines-hint">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Lines<span className="ml-0.5 text-rose-500" aria-hidden="true">*</span></legend>
          <p id="pre-billing-lines-hint" className="text-xs text-slate-500 dark:text-slate-400">
            One line per engineer and client: the days or hours worked, as the engineer&apos;s rate is agreed. The rate and the amount are filled in from your agreement.
          </p>
          <div data-field="lines" tabIndex={-1} aria-live="polite">
            {errors.lines?.map((message) => <p key={message} className="text-sm text-rose-600 dark:text-rose-400">{message}</p>)}
          </div>
          <ol className="space-y-3">
            {lines.fields.map((line, index) => (
              <LineEditor key={line.id} index={index} line={values.lines[index] ?? line} errors={errors} canRemove={lines.fields.length > 1}
                onChange={(change) => updateLine(index, change)} onRemove={() => lines.remove(index)} />
            ))}
          </ol>
          <Button variant="secondary" onClick={addLine}><Icon name="plus" className="size-4" />Add a line</Button>
        </fieldset>

        <div data-field="spreadsheet" tabIndex={-1}>
          <FileField name="spreadsheet" field={definition.fields.spreadsheet} value={values.spreadsheet} required
            onChange={(next) => set('spreadsheet', next)} errors={errors.spreadsheet} />
        </div>
        <TextAreaField name="note" data-field="note" label="Note" value={values.note} placeholder={definition.fields.note.placeholder}
          errors={errors.note} onChange={(event) => set('note', event.target.value)} />
        {progress !== null && <UploadProgress fraction={progress} />}
      </div>
      <FormFooter isDialog={isDialog}>
        <Button variant="secondary" onClick={() => guard.confirm(onCancel)} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>{!row ? 'Submit pre-billing' : isResubmission ? 'Resubmit' : 'Save changes'}</Button>
      </FormFooter>
      {guard.prompt}
    </form>
  );
}

function LineEditor({ index, line, errors, canRemove, onChange, onRemove }: {
  index: number; line: LineDraft; errors: FieldErrors; canRemove: boolean; onChange: (change: Partial<LineDraft>) => void; onRemove: () => void;
}) {
  const quantityId = `line-quantity-${useId()}`;
  const quantityErrors = errors[`lines.${index}.quantity`];
  const label = `Line ${index + 1}`;
  return (
    <li>
      <fieldset className="rounded-xl p-3 ring-1 ring-slate-200 ring-inset sm:p-4 dark:ring-slate-700">
        <div className="mb-2 flex items-center justify-between gap-2">
          <legend className="text-sm font-semibold text-slate-900 dark:text-white">{label}</legend>
          {canRemove && (
            <button type="button" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`} title="Remove line"
              className={cx('inline-flex size-9 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-rose-600 dark:text-slate-400 dark:hover:bg-slate-800', focusRing)}>
              <Icon name="trash" className="size-4" />
            </button>
          )}
        </div>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_8rem]">
          <SearchableSelect name={`lines.${index}.engineer_id`} label="Engineer" required value={line.engineer}
            onChange={(engineer) => onChange({ engineer })} load={(search) => loadOptions('partner-engineer', search)}
            errors={errors[`lines.${index}.engineer_id`]} placeholder="Search your engineers…" />
          <SearchableSelect name={`lines.${index}.client_id`} label="Client" required value={line.client}
            onChange={(client) => onChange({ client })} load={loadClients} errors={errors[`lines.${index}.client_id`]} placeholder="Search clients…" />
          <div>
            <label htmlFor={quantityId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
              Days or hours<span className="ml-0.5 text-rose-500" aria-hidden="true">*</span>
            </label>
            <input id={quantityId} data-field={`lines.${index}.quantity`} inputMode="decimal" autoComplete="off" value={line.quantity}
              aria-required aria-invalid={quantityErrors?.length ? true : undefined} aria-describedby={quantityErrors?.length ? `${quantityId}-error` : undefined}
              onChange={(event) => onChange({ quantity: event.target.value })}
              className={cx(inputClass, 'tabular-nums', !!quantityErrors?.length && invalidInputClass)} />
          </div>
        </div>
        <div id={`${quantityId}-error`} aria-live="polite">
          {quantityErrors?.map((message) => <p key={message} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{message}</p>)}
        </div>
      </fieldset>
    </li>
  );
}

/** The reason the statement was returned or held: the comment of the step that put it in its state. */
function useReturnReason(definition: ResourceDefinition, row: Row | null): string | null {
  const status = row ? String(row.status) : null;
  const isExplained = status === 'rejected' || status === 'on hold';
  const { entries } = useHistory(definition, isExplained && row ? row.id : null, status);
  if (!isExplained || !entries) return null;
  return [...entries].reverse().find((entry) => entry.to === status)?.comment ?? null;
}

// ---- The detail page ----

/** Below the record: where it stands (partner portal), the lines (beside the time sheets for staff), the earlier versions. */
export function PreBillingDetail({ row }: { row: Row }) {
  const isPartner = isPartnerArea();
  return (
    <div className="mt-6 space-y-6">
      {isPartner && (row.status === 'rejected' || row.status === 'on hold') && <ReturnReason row={row} />}
      {isPartner && row.status === 'approved' && <ReadyToInvoice row={row} />}
      {isPartner ? <LinesTable row={row} /> : <ComparisonTable row={row} />}
      <Versions row={row} />
    </div>
  );
}

/**
 * Why the statement came back or was paused, in the partner's own area (the status card above names
 * the state in the partner's words, `owner.states`), with the way to correct it.
 */
function ReturnReason({ row }: { row: Row }) {
  const reason = useReturnReason(preBilling, row);
  const editPath = row.status === 'rejected' && abilitiesOf(row).update ? resourcePath(preBilling, 'edit', { id: row.id }) : null;
  if (!reason && !editPath) return null;
  return (
    <Card>
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">{row.status === 'rejected' ? 'Returned for correction' : 'On hold'}</h2>
          {reason && <p className="mt-1 text-sm text-slate-700 dark:text-slate-200"><span className="font-medium">Reason:</span> {reason}</p>}
        </div>
        {editPath && (
          <Link href={editPath} className={cx('inline-flex h-10 shrink-0 items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
            <Icon name="pencil" className="size-4" />Correct and resubmit
          </Link>
        )}
      </div>
    </Card>
  );
}

/**
 * An approved statement no invoice bills yet: its final state shows no step, so the partner was left
 * with a bare "Approved". Says what comes next and leads to the invoice form (whose picker offers it).
 */
function ReadyToInvoice({ row }: { row: Row }) {
  const can = usePermissionCheck('partner');
  const mayInvoice = can(partnerInvoice.owner?.permissions.add);
  // The statements the firm may invoice (GET /partner/invoice/billable): once invoiced, this one is not.
  const { data: billable } = useQuery({
    queryKey: queryKeys.summary(partnerInvoice.name, 'billable'),
    queryFn: ({ signal }) => api.get<{ data: { id: number }[] }>(`${resourceBase(partnerInvoice)}/billable`, { silent: true, signal }).then((answer) => answer.data),
    enabled: mayInvoice,
  }, queryClient);
  const createPath = resourcePath(partnerInvoice, 'create');
  if (!mayInvoice || !createPath || !billable?.some((statement) => statement.id === row.id)) return null;
  return (
    <Card>
      <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">Ready to invoice</h2>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">Accounting approved this statement: you may now send the invoice for it.</p>
        </div>
        <Link href={createPath} className={cx('inline-flex h-10 shrink-0 items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}>
          <Icon name="plus" className="size-4" />Create the invoice
        </Link>
      </div>
    </Card>
  );
}

// Tables that turn into one card per line on phones (the generic DataTable's pattern): the header row
// goes, each cell shows its column's name beside the value. Explicit roles keep them tables for
// assistive technology while they are displayed as blocks.
const tableClass = 'min-w-full text-sm max-md:block md:divide-y md:divide-slate-200 dark:md:divide-slate-800';
// The outer columns line up with the card's title (px-5).
const headClass = 'px-4 py-2.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase first:pl-5 last:pr-5 dark:text-slate-400';
const bodyClass = 'divide-y divide-slate-100 max-md:block max-md:border-t max-md:border-slate-200 dark:divide-slate-800 dark:max-md:border-slate-800';
const rowClass = 'max-md:block max-md:space-y-1.5 max-md:px-5 max-md:py-3.5';
const cellClass = 'align-top text-slate-900 md:px-4 md:py-2.5 md:first:pl-5 md:last:pr-5 dark:text-slate-100';
/** The line's name: the card's title on phones. */
const rowHeadClass = cx(cellClass, 'text-left font-medium max-md:block max-md:text-base');
/** A figure: right-aligned in the table; on phones its column's name on the left, the value on the right. */
const figureClass = cx(cellClass, 'text-right whitespace-nowrap tabular-nums',
  'max-md:flex max-md:items-baseline max-md:justify-between max-md:gap-4',
  'max-md:before:shrink-0 max-md:before:text-xs max-md:before:font-medium max-md:before:text-slate-500 max-md:before:content-[attr(data-label)] dark:max-md:before:text-slate-400');
const secondary = 'block text-xs text-slate-500 dark:text-slate-400';

function LinesTable({ row }: { row: Row }) {
  const lines = linesOf(row);
  const currency = String(row.currency ?? '');
  return (
    <Card>
      <CardHeader title="Lines" description={`${lines.length === 1 ? '1 line' : `${lines.length} lines`}, ${formatMoney(Number(row.total ?? 0), currency)} in all`} />
      <div className="md:overflow-x-auto">
        <table role="table" className={tableClass}>
          <caption className="sr-only">Lines of the pre-billing</caption>
          <thead role="rowgroup" className="max-md:hidden"><tr role="row">
            <th role="columnheader" scope="col" className={headClass}>Engineer</th><th role="columnheader" scope="col" className={headClass}>Client</th>
            <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Quantity</th>
            <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Rate</th>
            <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Amount</th>
          </tr></thead>
          <tbody role="rowgroup" className={bodyClass}>
            {lines.map((line) => (
              <tr role="row" key={line.id} className={rowClass}>
                <th role="rowheader" scope="row" className={rowHeadClass}>{line.engineer.name}</th>
                <td role="cell" data-label="Client" className={cx(figureClass, 'md:text-left md:whitespace-normal')}>{line.client.name}</td>
                <td role="cell" data-label="Quantity" className={figureClass}>{quantityText(line.quantity, line.rate_type)}</td>
                <td role="cell" data-label="Rate" className={figureClass}>{formatMoney(line.rate, currency)} / {line.rate_type}</td>
                <td role="cell" data-label="Amount" className={cx(figureClass, 'max-md:font-medium')}>{formatMoney(line.amount, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** Staff: each line beside the approved time-sheet hours of the same engineer, client and month. */
function ComparisonTable({ row }: { row: Row }) {
  // Keyed by the record's last change: a save here shows the new comparison; the last one stays meanwhile.
  // A summary of the pre-billing (query.ts): a time sheet approved or sent back, here or live, refetches it.
  const { data: comparison = null, error: failure } = useQuery<PreBillingComparison>({
    queryKey: queryKeys.preBillingComparison(String(row.id), String(row.updated_at ?? '')),
    queryFn: ({ signal }) => api.get<{ data: PreBillingComparison }>(`${resourceBase(preBilling)}/${encodeURIComponent(String(row.id))}/comparison`, { silent: true, signal })
      .then((answer) => answer.data),
    placeholderData: keepPreviousData,
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'An error occurred.') : null;
  const lines = linesOf(row);
  const currency = String(row.currency ?? '');
  const amountOf = new Map(lines.map((line) => [line.id, line]));
  const differing = comparison?.lines.filter((line) => line.difference !== 0).length ?? 0;

  return (
    <Card>
      <CardHeader title="Lines and time sheets"
        description={`Billed hours (a day is ${HOURS_PER_DAY} h) beside the approved time sheets of the same engineer and client starting in ${monthLabel(row.month)}${isSupplementary(row) ? ', counting the hours the month\'s approved statement already bills' : ''}.`} />
      {error && <p className="px-5 py-4 text-sm text-rose-600 dark:text-rose-400">{error}</p>}
      {!comparison && !error && <div role="status" aria-label="Loading" className="space-y-3 px-5 py-4"><Skeleton className="h-4 w-2/3" /><Skeleton className="h-4 w-1/2" /></div>}
      {comparison && (
        <>
          <p className={cx('mx-5 my-3 rounded-lg px-3 py-2 text-sm ring-1 ring-inset', differing
            ? 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30'
            : 'bg-emerald-50 text-emerald-900 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-100 dark:ring-emerald-500/30')}>
            {differing ? `${differing} of ${comparison.lines.length} lines differ from the time sheets.` : 'Every line matches the approved time sheets.'}
          </p>
          <div className="md:overflow-x-auto">
            <table role="table" className={tableClass}>
              <caption className="sr-only">Lines of the pre-billing beside the approved time-sheet hours</caption>
              <thead role="rowgroup" className="max-md:hidden"><tr role="row">
                <th role="columnheader" scope="col" className={headClass}>Engineer</th><th role="columnheader" scope="col" className={headClass}>Client</th>
                <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Billed</th>
                <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Amount</th>
                <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Time sheets</th>
                <th role="columnheader" scope="col" className={cx(headClass, 'text-right')}>Difference</th>
              </tr></thead>
              <tbody role="rowgroup" className={bodyClass}>
                {comparison.lines.map((line) => {
                  const isDifferent = line.difference !== 0;
                  const stored = amountOf.get(line.line_id);
                  return (
                    <tr role="row" key={line.line_id} className={cx(rowClass, isDifferent && 'bg-amber-50/70 dark:bg-amber-500/10')}>
                      <th role="rowheader" scope="row" className={rowHeadClass}>{line.engineer.name}</th>
                      <td role="cell" data-label="Client" className={cx(figureClass, 'md:text-left md:whitespace-normal')}>{line.client.name}</td>
                      <td role="cell" data-label="Billed" className={figureClass}>
                        <span>
                          {quantityText(line.quantity, line.rate_type)}
                          {line.rate_type === 'day' && <span className={secondary}>{hours(line.billed_hours)}</span>}
                          {line.other_statements_hours > 0 && <span className={secondary}>and {hours(line.other_statements_hours)} on the month&apos;s other statements</span>}
                        </span>
                      </td>
                      <td role="cell" data-label="Amount" className={figureClass}>
                        <span>
                          {stored ? formatMoney(stored.amount, currency) : ''}
                          {stored && <span className={secondary}>{formatMoney(stored.rate, currency)} / {stored.rate_type}</span>}
                        </span>
                      </td>
                      <td role="cell" data-label="Time sheets" className={figureClass}>
                        <span>
                          {hours(line.time_sheet_hours)}
                          <span className={secondary}>{line.time_sheets === 1 ? '1 sheet' : `${line.time_sheets} sheets`}</span>
                        </span>
                      </td>
                      <td role="cell" data-label="Difference" className={figureClass}>
                        {isDifferent
                          ? <Badge tone={line.difference > 0 ? 'red' : 'amber'}>{line.difference > 0 ? '+' : '−'}{hours(Math.abs(line.difference))}<span className="sr-only">{line.difference > 0 ? ' billed beyond the time sheets' : ' fewer than the time sheets'}</span></Badge>
                          : <span className="text-emerald-700 dark:text-emerald-300">Matches</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot role="rowgroup" className="border-t border-slate-200 max-md:block dark:border-slate-800">
                <tr role="row" className={rowClass}>
                  <th role="rowheader" scope="row" colSpan={2} className={cx(rowHeadClass, 'font-semibold')}>Total</th>
                  <td role="cell" data-label="Billed" className={cx(figureClass, 'font-semibold')}>
                    <span>
                      {hours(comparison.totals.billed_hours)}
                      {comparison.totals.other_statements_hours > 0 && <span className={cx(secondary, 'font-normal')}>and {hours(comparison.totals.other_statements_hours)} on other statements</span>}
                    </span>
                  </td>
                  <td role="cell" data-label="Amount" className={cx(figureClass, 'font-semibold')}>{formatMoney(Number(row.total ?? 0), currency)}</td>
                  <td role="cell" data-label="Time sheets" className={cx(figureClass, 'font-semibold')}>{hours(comparison.totals.time_sheet_hours)}</td>
                  <td role="cell" data-label="Difference" className={cx(figureClass, 'font-semibold')}>{comparison.totals.difference > 0 ? '+' : comparison.totals.difference < 0 ? '−' : ''}{hours(Math.abs(comparison.totals.difference))}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}

/** The statement as it was before each correction, newest first. */
function Versions({ row }: { row: Row }) {
  const { data: loaded, isError } = useQuery({
    queryKey: queryKeys.recordPart(preBilling.name, String(row.id), 'versions', String(row.version ?? '')),
    queryFn: ({ signal }) => api.get<{ data: PreBillingVersion[] }>(`${resourceBase(preBilling)}/${encodeURIComponent(String(row.id))}/versions`, { silent: true, signal })
      .then((answer) => answer.data),
  }, queryClient);
  const versions = isError ? [] : loaded;
  if (!versions?.length) return null;
  return (
    <Card>
      <CardHeader title="Earlier versions" description="What was submitted before each correction." />
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {versions.map((version) => (
          <li key={version.version}>
            <details className="group px-5 py-3">
              <summary className={cx('flex cursor-pointer items-center justify-between gap-3 rounded text-sm', focusRing)}>
                <span className="font-medium text-slate-900 dark:text-white">Version {version.version}</span>
                <span className="tabular-nums text-slate-600 dark:text-slate-300">{formatMoney(version.total, version.currency)}</span>
              </summary>
              <ul className="mt-2 space-y-1 text-sm text-slate-700 dark:text-slate-300">
                {version.lines.map((line, index) => (
                  <li key={index} className="flex flex-wrap justify-between gap-x-3">
                    <span>{line.engineer?.name ?? `#${line.engineer_id}`} · {line.client?.name ?? `#${line.client_id}`}</span>
                    <span className="tabular-nums">{quantityText(line.quantity, line.rate_type)} · {formatMoney(line.amount, version.currency)}</span>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </Card>
  );
}
