// The time-sheet upload (issue 5): online it goes up with a progress bar; offline, or when the
// connection drops mid-upload, it goes into the outbox (IndexedDB, files as Blobs) under the same
// Idempotency-Key and is delivered exactly once when the network returns.
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  TIME_SHEET_ACCEPT, TIME_SHEET_EXTENSIONS, TIME_SHEET_MAX_BYTES, timeSheet, timeSheetUploadSchema,
} from '../../../shared/resources/time-sheet';
import { addDays, today, weekdayOf } from '../../../shared/dates';
import type { FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { applyServerErrors, FORM_ERROR, formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { getOutboxItem, OutboxFullError, resubmitOutboxItem, sendOrQueue } from '../../lib/outbox';
import { queuedActionWords } from '../../lib/outbox-actions';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import { Button } from '../../ui/button';
import { type ChoiceOption, SearchableSelect } from '../../ui/combobox';
import { DateInput } from '../../ui/date-input';
import { FieldShell, FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { TextAreaField } from '../../ui/textarea-field';
import { bracketedFormData, labelFor, loadOptions } from '../../ui/resources/resource-api';
import { useEmptyChoices } from '../../ui/resources/empty-choices';

const periodOptions = [{ value: 'month', label: 'Month' }, { value: 'week', label: 'Week' }];

/** The resources whose options this form picks from: kept available offline by the screen that hosts it (issue 14). */
export const UPLOAD_OPTION_RESOURCES = ['client'] as const;

/** Client-side checks of the file; the server checks again, including the file's real content. */
function fileErrors(file: File | null): string[] | undefined {
  if (!file) return ['The file field is required.'];
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(TIME_SHEET_EXTENSIONS as readonly string[]).includes(extension)) return ['The file must be a PDF, an image or a spreadsheet.'];
  if (file.size > TIME_SHEET_MAX_BYTES) return [`The file may not be greater than ${TIME_SHEET_MAX_BYTES / 1024 / 1024} MB.`];
  return undefined;
}

/** Where a new sheet's period starts unless the engineer picks a day: this month's 1st, or this week's Monday. */
export function defaultPeriodStart(periodType: string, day = today()): string {
  return periodType === 'week' ? addDays(day, -weekdayOf(day)) : `${day.slice(0, 8)}01`;
}

interface UploadValues { client_id: ChoiceOption | null; period_type: string; period_start: string; hours: string; note: string; file: File | null }

/** What the schema checks and the server reads, without the file. */
const uploadFields = (values: UploadValues) => ({
  period_type: values.period_type, period_start: values.period_start, hours: values.hours, note: values.note || null, client_id: values.client_id?.id ?? '',
});

/** A sheet uploaded again after a rejection: its client, period and hours, so only the file is chosen anew. */
export type UploadAgain = Pick<UploadValues, 'client_id' | 'period_type' | 'period_start' | 'hours'>;

/**
 * `outboxItemId`: a queued upload the server refused (422) — the form opens with its stored fields,
 * file and errors, and saving resubmits it in its place in the queue (the outbox menu links here).
 * `again`: the rejected sheet this one corrects.
 */
export function UploadDialogForm({ onDone, outboxItemId, again }: { onDone: (isSaved: boolean) => void; outboxItemId?: string | null; again?: UploadAgain }) {
  const noClients = useEmptyChoices('client');
  const form = useForm<UploadValues>({
    defaultValues: { client_id: null, period_type: 'month', period_start: defaultPeriodStart('month'), hours: '', note: '', file: null, ...again },
    resolver: payloadResolver<UploadValues>(timeSheetUploadSchema, uploadFields, (values): FieldErrors => {
      const badFile = fileErrors(values.file);
      return badFile ? { file: badFile } : {};
    }),
  });
  const values = form.watch();
  const { client_id: client, file } = values;
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const [progress, setProgress] = useState<number | null>(null);
  const set = <K extends keyof UploadValues>(key: K) => (value: UploadValues[K]) => { form.setValue(key, value as never, { shouldDirty: true }); form.clearErrors(key); };
  // A start the engineer has not picked follows the period: choosing Week kept the month's 1st (often a
  // weekend), so the week uploaded was not the one they meant unless they noticed and retyped it.
  const isStartPicked = useRef(!!again);
  const choosePeriod = (periodType: string) => {
    set('period_type')(periodType);
    if (!outboxItemId && !isStartPicked.current) form.setValue('period_start', defaultPeriodStart(periodType));
  };
  const pickStart = (day: string) => { isStartPicked.current = true; set('period_start')(day); };

  useEffect(() => {
    if (!outboxItemId) return;
    void getOutboxItem(outboxItemId).then(async (item) => {
      if (!item?.form) return;
      // Queued with bracketed keys (spec §7), or flat by an earlier version of this form.
      const text = (name: string) => item.form!.find((e) => (e.name === `${timeSheet.name}[${name}]` || e.name === name) && 'value' in e) as { value: string } | undefined;
      const current = form.getValues();
      const stored = item.form.find((e) => 'blob' in e);
      form.reset({
        ...current,
        ...Object.fromEntries((['period_type', 'period_start', 'hours', 'note'] as const).flatMap((key) => (text(key) ? [[key, text(key)!.value]] : []))),
        file: stored && 'blob' in stored ? new File([stored.blob], stored.filename ?? 'time-sheet', { type: stored.blob.type }) : current.file,
      });
      applyServerErrors(form, item.fieldErrors);
      const clientId = text('client_id')?.value;
      if (clientId) form.setValue('client_id', await labelFor('client', clientId));
    });
  }, [outboxItemId, form]);

  const onSubmit = form.handleSubmit((checked) => submitForm(form, async () => {
    const fields = uploadFields(checked);
    // Spec §7: bracketed keys, `time-sheet[hours]` and `time-sheet[file][]`.
    const formData = bracketedFormData(timeSheet.name, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '')), { file: [checked.file!] });
    const label = queuedActionWords(timeSheet, 'upload', { period_start: checked.period_start, file_name: checked.file!.name });
    if (outboxItemId) {
      await resubmitOutboxItem(outboxItemId, { formData });
      notify.info('The corrected time sheet is queued again.');
      return onDone(true);
    }
    // Offline, behind other waiting changes, or when no answer comes back: kept in the outbox (issue 26).
    setProgress(0);
    try {
      const result = await sendOrQueue({ method: 'POST', url: '/time-sheet', formData, label, resource: timeSheet.name, editPath: '/time-sheet' },
        (headers) => uploadWithProgress<{ message?: string }>('/time-sheet', formData, setProgress, { headers }));
      if (result.queued) notify.info('You are offline: the time sheet is saved on this device and will upload when you are back online.');
      else notify.success(result.answer.message ?? 'Time sheet uploaded successfully.');
      onDone(true);
    } catch (error) {
      // No room on the device to keep it: said on the form, nothing accepted.
      if (error instanceof OutboxFullError) form.setError(FORM_ERROR, { type: 'server', message: error.message });
      else throw error;
    } finally {
      setProgress(null);
    }
  }));

  const isUploading = progress !== null;
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5 p-5">
      <FormAlert message={formMessage(form) ?? (Object.keys(errors).length ? 'Please correct the fields below.' : null)} />
      <SearchableSelect label="Client" name="client_id" required value={client} onChange={set('client_id')}
        load={(search) => loadOptions('client', search)} errors={errors.client_id} emptyChoices={noClients} />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField name="period_type" label="Period" required options={periodOptions} value={values.period_type}
          onChange={(e) => choosePeriod(e.target.value)} errors={errors.period_type} />
        <FieldShell id="time-sheet-period-start" label="Period start" required errors={errors.period_start} hint="YYYY-MM-DD">
          <DateInput id="time-sheet-period-start" name="period_start" data-field="period_start" value={values.period_start} onChange={pickStart}
            invalid={!!errors.period_start} pickerLabel="Choose the period start" aria-required
            aria-describedby={errors.period_start ? 'time-sheet-period-start-error' : 'time-sheet-period-start-hint'} />
        </FieldShell>
      </div>
      {/* Text, not a number input: Chromium drops a decimal comma there ("7,5" became 75); here it reads as 7.5. */}
      <TextField label="Hours" name="hours" data-field="hours" type="text" inputMode="decimal" autoComplete="off" required
        value={values.hours} onChange={(e) => set('hours')(e.target.value.replace(',', '.'))} errors={errors.hours} />
      <FieldShell id="time-sheet-file" label="File" required errors={errors.file} hint={file && outboxItemId ? `Queued file: ${file.name}. Choose another to replace it.` : 'PDF, image or spreadsheet, up to 10 MB.'}>
        <input id="time-sheet-file" name="file" type="file" accept={TIME_SHEET_ACCEPT} data-field="file"
          aria-invalid={!!errors.file || undefined} aria-required
          aria-describedby={errors.file ? 'time-sheet-file-error' : 'time-sheet-file-hint'}
          onChange={(e) => set('file')(e.target.files?.[0] ?? null)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-indigo-700 hover:file:bg-indigo-100 dark:text-slate-300 dark:file:bg-indigo-500/15 dark:file:text-indigo-200" />
      </FieldShell>
      <TextAreaField label="Note" name="note" data-field="note" rows={3} value={values.note} onChange={(e) => set('note')(e.target.value)} errors={errors.note} />
      {isUploading && (
        <div>
          <div className="mb-1 flex justify-between text-xs text-slate-600 dark:text-slate-300"><span>Uploading…</span><span>{Math.round(progress * 100)}%</span></div>
          <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}
            className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
            <div className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
        </div>
      )}
      <div className="flex justify-end gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
        <Button variant="secondary" onClick={() => guard.confirm(() => onDone(false))} disabled={isUploading}>Cancel</Button>
        <Button type="submit" isLoading={isUploading}>{outboxItemId ? 'Queue again' : 'Upload'}</Button>
      </div>
      {guard.prompt}
    </form>
  );
}
