// My Documents (issue 10, spec /document "upload-assigned-document"): what is assigned to me, with due
// dates and status, where I open and acknowledge a document or return my signed copy (with progress),
// and the documents I hold myself (a certification, a visa, a clearance) with their expiry dates.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { queryClient, queryKeys } from '../../lib/query';
import { useSnapshot } from 'valtio';
import { ownDocument } from '../../../shared/resources/document';
import { documentAssignment, documentAssignmentWorkflow } from '../../../shared/resources/document-assignment';
import { COMPLIANCE_FILE_EXTENSIONS, COMPLIANCE_FILE_MAX_BYTES } from '../../../shared/resources/document-repository';
import { daysLateText, daysOverdue, dueSoonLabel } from '../../../shared/rules';
import { today } from '../../../shared/dates';
import { api, isApiError } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { refreshMe } from '../../lib/session';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import type { ScreenProps } from '../../routes';
import { auth } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { SkeletonList } from '../../ui/loading';
import { Modal } from '../../ui/modal';
import { bracketedFormData, QUEUED_MESSAGE } from '../../ui/resources/resource-api';
import { QueuedItems } from '../../ui/resources/queued-items';
import { currentPagePath, OutboxFullError, sendOrQueue } from '../../lib/outbox';
import { queuedActionWords, queuedTransitionWords } from '../../lib/outbox-actions';
import { UploadProgress } from '../../ui/resources/resource-form';
import { ResourceList } from '../../ui/resources/resource-list';
import type { Row } from '../../ui/resources/use-resource-query';

interface Assignment extends Row {
  document_title: string;
  action: 'acknowledge' | 'return';
  status: string;
  due_date: string;
  created_at: string;
  version: number;
  message: string | null;
  available_transitions: { name: string }[];
  assigner: { id: number; name: string } | null;
}

/** The holder's own list before they add anything: what to add and why, not "No own documents yet". */
const OWN_DOCUMENTS_EMPTY = {
  title: 'You have not added any documents yet',
  description: 'Add each certification, visa, clearance or NDA you hold, with a scan or photo and its expiry date: you are reminded before one runs out.',
};

const ACCEPT = COMPLIANCE_FILE_EXTENSIONS.map((extension) => `.${extension}`).join(',');

/**
 * When it is due, in words (issue 24): the date, and while it waits for me either the spec §5
 * countdown of its last five days, saying what it counts ("2 days left to read it"), or how late it
 * is ("5 days late"); never both.
 */
function DueText({ row }: { row: Assignment }) {
  const isWaiting = row.status === 'pending' || row.status === 'rejected';
  const late = isWaiting ? daysOverdue({ due_date: row.due_date, status: row.status }) : 0;
  const countdown = isWaiting && !late ? dueSoonLabel(row.due_date, today(), row.action === 'acknowledge' ? 'to read it' : 'to return it') : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="tabular-nums">Due {row.due_date}</span>
      {late > 0 && <Badge tone="red">{daysLateText(late)}</Badge>}
      {countdown && <Badge tone="amber">{countdown}</Badge>}
    </span>
  );
}

export default function MyDocuments({ account }: ScreenProps) {
  const me = useSnapshot(auth.app).user;
  const [opened, setOpened] = useState<{ row: Assignment; url: string; type: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [progress, setProgress] = useState<{ id: number; fraction: number } | null>(null);
  const uploadFor = useRef<Assignment | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // A list of the user's assignments: a live assignment (the bell) or a decision on my copy refetches it.
  const params = { user_id: me?.id ?? 0, per_page: 100, sort: 'due_date', direction: 'asc' };
  const { data: rows = null, error: failure, refetch } = useQuery({
    queryKey: queryKeys.list(documentAssignment.name, { base: `/${documentAssignment.name}`, ...params }),
    queryFn: ({ signal }): Promise<Assignment[]> =>
      api.get<{ data: Assignment[] }>(`/${documentAssignment.name}`, { params, silent: true, signal }).then((answer) => answer.data),
    enabled: !!me,
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'The assigned documents could not be loaded.') : null;
  const load = useCallback(async () => { await refetch(); }, [refetch]);
  useEffect(() => () => { if (opened) URL.revokeObjectURL(opened.url); }, [opened]);

  /** After my step the header icon follows what still waits for me. */
  const afterStep = async () => {
    await load();
    await refreshMe(account).catch(() => undefined);
  };

  const open = async (row: Assignment) => {
    setBusy(row.id);
    try {
      const blob = await api.get<Blob>(`/${documentAssignment.name}/${row.id}/document`, { params: { disposition: 'inline' }, responseType: 'blob' });
      setOpened({ row, url: URL.createObjectURL(blob), type: blob.type });
    } catch { /* the wrapper reported it */ } finally { setBusy(null); }
  };

  const download = async (row: Assignment) => {
    const blob = await api.get<Blob>(`/${documentAssignment.name}/${row.id}/document`, { responseType: 'blob' });
    saveBlob(blob, `${row.document_title} v${row.version}`);
  };

  const acknowledge = async (row: Assignment) => {
    setBusy(row.id);
    try {
      const url = `/${documentAssignment.name}/${row.id}/transitions/acknowledge`;
      // Issue 26: offline it waits in the outbox.
      const result = await sendOrQueue({ method: 'POST', url, body: {}, label: queuedTransitionWords(documentAssignment, 'acknowledge', row), resource: documentAssignment.name, recordId: row.id, editPath: currentPagePath(), isFixedHere: true },
        (headers) => api.post<{ message: string }>(url, {}, { headers }));
      notify[result.queued ? 'info' : 'success'](result.queued ? QUEUED_MESSAGE : result.answer.message);
      setOpened(null);
      if (!result.queued) await afterStep();
    } catch (error) {
      if (error instanceof OutboxFullError) notify.error(error.message); // else the wrapper reported it
    } finally { setBusy(null); }
  };

  const chooseCopy = (row: Assignment) => {
    uploadFor.current = row;
    fileInput.current?.click();
  };

  const onCopyChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    const row = uploadFor.current;
    event.target.value = '';
    if (!file || !row) return;
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!(COMPLIANCE_FILE_EXTENSIONS as readonly string[]).includes(extension)) {
      notify.error('The copy must be a PDF, an image or an office document.');
      return;
    }
    if (file.size > COMPLIANCE_FILE_MAX_BYTES) {
      notify.error(`The copy may not be greater than ${COMPLIANCE_FILE_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    // Spec §7: bracketed keys, `document-assign-history[returned_copy][]`.
    const form = bracketedFormData(documentAssignment.name, {}, { returned_copy: [file] });
    setProgress({ id: row.id, fraction: 0 });
    const url = `/${documentAssignment.name}/${row.id}/return`;
    try {
      // Issue 26: offline (or when the upload gets no answer) the copy waits in the outbox, file and all.
      const result = await sendOrQueue({ method: 'POST', url, formData: form, label: queuedActionWords(documentAssignment, 'copy', { document_title: row.document_title, file_name: file.name }), resource: documentAssignment.name, recordId: row.id, editPath: currentPagePath(), isFixedHere: true },
        (headers) => uploadWithProgress<{ message: string }>(url, form, (fraction) => setProgress({ id: row.id, fraction }), { headers }));
      notify[result.queued ? 'info' : 'success'](result.queued ? QUEUED_MESSAGE : result.answer.message);
      setOpened(null);
      if (!result.queued) await afterStep();
    } catch (error) {
      if (error instanceof OutboxFullError) notify.error(error.message); // else the wrapper reported it
    } finally { setProgress(null); }
  };

  const waiting = rows?.filter((row) => row.status === 'pending' || row.status === 'rejected') ?? [];
  const done = rows?.filter((row) => row.status !== 'pending' && row.status !== 'rejected') ?? [];

  const item = (row: Assignment) => {
    const state = documentAssignmentWorkflow.states[row.status];
    const canAcknowledge = row.available_transitions?.some((t) => t.name === 'acknowledge');
    const canReturn = row.action === 'return' && (row.status === 'pending' || row.status === 'rejected');
    return (
      <li key={row.id} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid={`assignment-${row.id}`}>
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900 dark:text-white">{row.document_title}</span>
            <Badge tone={state?.tone ?? 'gray'}>{state?.label ?? row.status}</Badge>
            <span className="text-xs text-slate-500 dark:text-slate-400">v{row.version}</span>
          </div>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
            <DueText row={row} />
            <span>{row.action === 'return' ? 'Return a signed or completed copy' : 'Read and acknowledge'}</span>
            {row.assigner && <span className="text-slate-500 dark:text-slate-400">From {row.assigner.name}</span>}
          </div>
          {row.status === 'rejected' && <p className="text-sm text-rose-700 dark:text-rose-300">Your copy was rejected: return a corrected one.</p>}
          {row.message && <p className="text-sm whitespace-pre-line text-slate-500 dark:text-slate-400">{row.message}</p>}
          {progress?.id === row.id && <div className="max-w-sm pt-1"><UploadProgress fraction={progress.fraction} /></div>}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => open(row)} isLoading={busy === row.id && !canAcknowledge}>
            <Icon name="eye" className="size-4" />Open
          </Button>
          {canAcknowledge && <Button size="sm" onClick={() => acknowledge(row)} isLoading={busy === row.id}>Acknowledge</Button>}
          {canReturn && (
            <Button size="sm" onClick={() => chooseCopy(row)} disabled={progress !== null}>
              <Icon name="upload" className="size-4" />Upload signed copy
            </Button>
          )}
        </div>
      </li>
    );
  };

  return (
    <>
      <PageHeader title="My Documents" description="Documents assigned to you, and the documents you hold (certifications, visas, clearances)." />
      <input ref={fileInput} type="file" accept={ACCEPT} className="sr-only" tabIndex={-1} aria-hidden="true" onChange={onCopyChosen} data-testid="returned-copy-input" />
      <QueuedItems definition={documentAssignment} account={account} />
      <Card className="mb-6">
        {/* Nothing assigned: the empty state below says so; a "0 waiting for you" above it said it twice. */}
        <CardHeader title="Assigned to me" description={rows?.length ? (waiting.length ? `${waiting.length} waiting for you` : 'Nothing waits for you') : undefined} />
        {error && <EmptyState icon="alert" title={error} />}
        {!error && !rows && <div className="p-5"><SkeletonList rows={3} /></div>}
        {rows && !rows.length && <EmptyState icon="inbox" title="Nothing is assigned to you." description="Documents the firm asks you to read or sign appear here." />}
        {rows && rows.length > 0 && (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Waiting for you">
            {waiting.map(item)}
            {done.map(item)}
          </ul>
        )}
      </Card>
      {me && (
        <ResourceList definition={ownDocument} account={account} title="My own documents" embedded={{ field: 'user_id', id: me.id }}
          customization={{ emptyState: OWN_DOCUMENTS_EMPTY }} />
      )}
      <Modal open={!!opened} title={opened?.row.document_title ?? ''} onClose={() => setOpened(null)} size="lg">
        {opened && (
          <>
            <div className="flex min-h-64 items-center justify-center bg-slate-50 p-3 dark:bg-slate-950/40">
              {opened.type.startsWith('image/')
                ? <img src={opened.url} alt={opened.row.document_title} className="max-h-[60vh] max-w-full rounded-md object-contain" />
                : opened.type === 'application/pdf'
                  ? <iframe src={opened.url} title={opened.row.document_title} className="h-[60vh] w-full rounded-md bg-white" />
                  : <p className="text-sm text-slate-600 dark:text-slate-300">This file cannot be shown here: download it to read it.</p>}
            </div>
            <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:justify-end dark:border-slate-800">
              <Button variant="secondary" onClick={() => download(opened.row)}><Icon name="download" className="size-4" />Download</Button>
              {opened.row.available_transitions?.some((t) => t.name === 'acknowledge') && (
                <Button onClick={() => acknowledge(opened.row)} isLoading={busy === opened.row.id}>I have read it: acknowledge</Button>
              )}
              {opened.row.action === 'return' && (opened.row.status === 'pending' || opened.row.status === 'rejected') && (
                <Button onClick={() => chooseCopy(opened.row)}><Icon name="upload" className="size-4" />Upload signed copy</Button>
              )}
            </div>
          </>
        )}
      </Modal>
    </>
  );
}
