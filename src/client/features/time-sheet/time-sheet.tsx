// Time sheets (route time-sheet.index, can-view-time-sheet): the generic list of the shared
// definition — engineers see theirs, managers their reports', admins all (the server scopes it) —
// plus upload (can-add-time-sheet), review by the engineer's manager (can-edit-time-sheet) and
// file download.
import { useRef, useState } from 'react';
import { useForm as useHookForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { useLocation, useSearch } from 'wouter';
import { transitionCommentSchema, type AvailableTransition } from '../../../shared/resources/define';
import { timeSheet, TIME_SHEET_REVIEW_PERMISSION, TIME_SHEET_UPLOAD_PERMISSION, TIME_SHEET_WITHDRAW } from '../../../shared/resources/time-sheet';
import { api, isApiError, type FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { saveBlob } from '../../lib/download';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { auth } from '../../stores/auth';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Modal } from '../../ui/modal';
import { useOptionsOffline } from '../../ui/resources/resource-api';
import { iconAction, ResourceList, usePermissionCheck } from '../../ui/resources/resource-list';
import { RowTransitions, useTransitionRunner } from '../../ui/resources/workflow';
import { EMPTY } from '../../ui/resources/resource-values';
import type { Row } from '../../ui/resources/use-resource-query';
import { TextAreaField } from '../../ui/textarea-field';
import { type UploadAgain, UPLOAD_OPTION_RESOURCES, UploadDialogForm } from './upload-dialog';

async function downloadFile(row: Row) {
  try {
    const blob = await api.get<Blob>(`/time-sheet/${row.id}/file`, { responseType: 'blob' });
    saveBlob(blob, String(row.file_name ?? `time-sheet-${row.id}`));
  } catch { /* the wrapper reported it */ }
}

const UPLOAD_BUTTON_ID = 'upload-time-sheet';

/**
 * "Please upload it again" (the rejection's notice): the corrected sheet starts from the rejected one's
 * client, period and hours, so the engineer only chooses the new file (and fixes what was wrong).
 */
function againOf(row: Row): UploadAgain {
  const client = row.client as { id: number; name: string } | null | undefined;
  return {
    client_id: client ? { id: client.id, label: client.name } : null,
    period_type: String(row.period_type), period_start: String(row.period_start), hours: String(row.hours),
  };
}

const offered = (row: Row) => (row.available_transitions as AvailableTransition[] | undefined) ?? [];
/** The decisions the server offers this reviewer on the row (the workflow decides, not the screen). */
const reviewTransitions = (row: Row) => offered(row).filter((transition) => transition.name !== TIME_SHEET_WITHDRAW);
/** The engineer's own step on their sheet while it waits (decision 058): withdrawing it. */
const ownSteps = (row: Row) => offered(row).filter((transition) => transition.name === TIME_SHEET_WITHDRAW);

function ReviewForm({ row, onDone }: { row: Row; onDone: (isSaved: boolean) => void }) {
  const chosen = useRef<AvailableTransition | null>(null);
  const form = useHookForm<{ comment: string }>({
    defaultValues: { comment: '' },
    // The transition pressed decides whether a comment is required.
    resolver: payloadResolver<{ comment: string }>(transitionCommentSchema(false), (values) => values, (values): FieldErrors =>
      (chosen.current?.requires_comment && !values.comment.trim() ? { comment: [`A comment is required to ${chosen.current.label.toLowerCase()}.`] } : {})),
  });
  const comment = form.watch('comment');
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting } = form.formState;
  const guard = useDirtyGuard(isDirty && !form.formState.isSubmitSuccessful);
  const [saving, setSaving] = useState<string | null>(null);

  const decide = (transition: AvailableTransition) => {
    chosen.current = transition;
    setSaving(transition.name);
    void form.handleSubmit((checked) => submitForm(form,
      () => api.post<{ message?: string }>(`/time-sheet/${row.id}/transitions/${transition.name}`, { comment: checked.comment.trim() || null }), {
        onSaved: (answer) => { notify.success(answer.message ?? 'Time sheet reviewed.'); onDone(true); },
        // Decided by someone else meanwhile: the list shows what happened.
        onFailure: (error) => { if (isApiError(error) && error.status === 409) onDone(true); },
      }))().finally(() => setSaving(null));
  };

  const user = row.user as { name?: string } | undefined;
  return (
    <div className="space-y-5 p-5">
      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-800/60">
        <div><dt className="text-slate-500 dark:text-slate-400">Engineer</dt><dd className="font-medium">{user?.name ?? `#${row.user_id}`}</dd></div>
        <div><dt className="text-slate-500 dark:text-slate-400">Hours</dt><dd className="font-medium tabular-nums">{String(row.hours)}</dd></div>
        <div><dt className="text-slate-500 dark:text-slate-400">Period</dt><dd className="font-medium">{String(row.period_start)} – {String(row.period_end)}</dd></div>
        <div><dt className="text-slate-500 dark:text-slate-400">File</dt><dd>
          <button type="button" onClick={() => downloadFile(row)} className="font-medium text-indigo-600 hover:underline dark:text-indigo-300">{String(row.file_name)}</button>
        </dd></div>
        {typeof row.note === 'string' && row.note && (
          <div className="col-span-2"><dt className="text-slate-500 dark:text-slate-400">Engineer's note</dt><dd className="whitespace-pre-line">{row.note}</dd></div>
        )}
      </dl>
      <FormAlert message={formMessage(form)} />
      <TextAreaField label="Comment" name="comment" rows={3} value={comment} onChange={(e) => { form.setValue('comment', e.target.value, { shouldDirty: true }); form.clearErrors('comment'); }}
        errors={errors.comment} hint="Required when rejecting; the engineer is notified either way." />
      <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
        <Button variant="secondary" onClick={() => guard.confirm(() => onDone(false))} disabled={isSubmitting}>Cancel</Button>
        {/* Rejections first, so the primary decision sits last, where the eye ends. */}
        {[...reviewTransitions(row)].sort((a, b) => Number(b.tone === 'danger') - Number(a.tone === 'danger')).map((transition) => (
          <Button key={transition.name} variant={transition.tone === 'danger' ? 'danger' : 'primary'} onClick={() => decide(transition)}
            isLoading={isSubmitting && saving === transition.name} disabled={isSubmitting}>{transition.label}</Button>
        ))}
      </div>
      {guard.prompt}
    </div>
  );
}

export default function TimeSheetScreen({ account }: ScreenProps) {
  const can = usePermissionCheck(account);
  const me = useSnapshot(auth[account]).user;
  const [dialog, setDialog] = useState<{ mode: 'upload'; again?: UploadAgain } | { mode: 'review'; row: Row } | null>(null);
  // The withdrawal's confirmation (its optional comment goes to the manager); the list refetches after it.
  // Its button goes with the sheet's new state, so focus would fall to the page: it goes to the next step,
  // uploading the corrected sheet, once the dialog has closed and tried to give it back to the gone button.
  const withdrawal = useTransitionRunner(timeSheet, () => {
    requestAnimationFrame(() => document.getElementById(UPLOAD_BUTTON_ID)?.focus());
  });
  const search = new URLSearchParams(useSearch());
  // ?outbox=<id>: the outbox menu's "fix" link for a queued upload the server refused.
  const outboxItemId = search.get('outbox');
  // ?highlight=<id>: a notification's link. A sheet waiting for this reviewer opens for review.
  const highlighted = Number(search.get('highlight')) || null;
  const [, navigate] = useLocation();
  // The upload can be queued offline: its client picker must work then, opened online before or not.
  useOptionsOffline(UPLOAD_OPTION_RESOURCES, can(TIME_SHEET_UPLOAD_PERMISSION));
  // The linked sheet, read through the cache; it opens for review when it waits for this reviewer.
  const { data: linked } = useQuery({
    queryKey: queryKeys.record(timeSheet.name, highlighted ?? 0),
    queryFn: ({ signal }) => api.get<{ data: Row }>(`/time-sheet/${highlighted}`, { account, silent: true, signal }).then((answer) => answer.data),
    enabled: !!highlighted && can(TIME_SHEET_REVIEW_PERMISSION),
  }, queryClient); // gone or not theirs (an error): the list is enough
  // Closed once, the link's dialog stays closed (another link opens its own).
  const [dismissed, setDismissed] = useState<number | null>(null);
  const shown = dialog ?? (highlighted && highlighted !== dismissed && linked && reviewTransitions(linked).length ? { mode: 'review' as const, row: linked } : null);
  const close = (isSaved: boolean) => {
    setDialog(null);
    if (highlighted) setDismissed(highlighted);
    if (outboxItemId || highlighted) navigate('/time-sheet', { replace: true });
    // Refetched in place (not remounted), so focus goes back to the button that opened the dialog.
    if (isSaved) invalidateAfterWrite('time-sheet');
  };

  return (
    <>
      <ResourceList definition={timeSheet} account={account} customization={{
        // An engineer reads what they do here; a reviewer what the list holds.
        description: can(TIME_SHEET_REVIEW_PERMISSION)
          ? 'Uploaded by engineers for each period and client, reviewed by their managers.'
          : 'Upload one sheet per week or month for each client. Your manager reviews it; a rejected sheet says why.',
        // The whole comment: it is why a sheet was rejected, and the list's two clamped lines cut it off on a phone.
        cells: { comment: (row) => (typeof row.comment === 'string' && row.comment ? <span className="block max-w-md whitespace-pre-line">{row.comment}</span> : EMPTY) },
        headerActions: can(TIME_SHEET_UPLOAD_PERMISSION) && (
          <Button id={UPLOAD_BUTTON_ID} onClick={() => setDialog({ mode: 'upload' })}><Icon name="upload" className="size-4" />Upload time sheet</Button>
        ),
        rowHref: () => null,
        hasOwnRowDecision: true,
        rowActions: (row) => (
          <>
            <RowTransitions row={{ ...row, available_transitions: ownSteps(row) }} title={`time sheet from ${String(row.period_start)}`}
              onStart={(transition) => withdrawal.start(transition, [row], String(row.period_start))} />
            {row.status === 'rejected' && row.user_id === me?.id && can(TIME_SHEET_UPLOAD_PERMISSION) && (
              <button type="button" className={iconAction} aria-label={`Upload the time sheet from ${String(row.period_start)} again`} title="Upload again"
                onClick={() => setDialog({ mode: 'upload', again: againOf(row) })}>
                <Icon name="upload" className="size-4" />
              </button>
            )}
            <button type="button" className={iconAction} aria-label={`Download ${String(row.file_name)}`} title="Download" onClick={() => downloadFile(row)}>
              <Icon name="download" className="size-4" />
            </button>
            {reviewTransitions(row).length > 0 && (
              <button type="button" className={iconAction} aria-label={`Review time sheet of ${String((row.user as { name?: string } | undefined)?.name ?? '')}`} title="Review"
                onClick={() => setDialog({ mode: 'review', row })}>
                <Icon name="check" className="size-4" />
              </button>
            )}
          </>
        ),
      }} />
      {(dialog?.mode === 'upload' || outboxItemId) && (
        <Modal open title={outboxItemId ? 'Fix queued time sheet' : 'Upload time sheet'} onClose={() => close(false)}>
          <UploadDialogForm key={outboxItemId ?? 'new'} onDone={close} outboxItemId={outboxItemId} again={dialog?.mode === 'upload' ? dialog.again : undefined} />
        </Modal>
      )}
      {withdrawal.dialog}
      {shown?.mode === 'review' && (
        <Modal open title="Review time sheet" onClose={() => close(false)}><ReviewForm row={shown.row} onDone={close} /></Modal>
      )}
    </>
  );
}
