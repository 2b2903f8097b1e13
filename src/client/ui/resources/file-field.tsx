// File fields of the generic screens (`input: 'file'`, docs/resources.md "File fields"): the form's
// picker with the record's attachments, chosen files and client checks (extension, size, count —
// the server checks again, and the content's first bytes), and the detail page's attachment list
// with downloads and an image / PDF preview fetched with the bearer token.
import { useEffect, useId, useState, type DragEvent } from 'react';
import type { AttachmentSummary, FieldDefinition, FileFieldDefinition, ResourceDefinition } from '../../../shared/resources/define';
import { isApiError } from '../../lib/api';
import { Button, focusRing } from '../button';
import { cx } from '../cx';
import { EmptyState } from '../empty-state';
import { Icon } from '../icons';
import { Spinner } from '../loading';
import { Modal } from '../modal';
import { downloadAttachment, fetchAttachmentPreview, type FileSelection } from './resource-api';
import { EMPTY } from './resource-values';

/** 1536 -> "1.5 KB" (binary units, as file managers show them). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

const extensionOf = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');

/** The `accept` attribute of a file input: `.pdf,.png`. */
export const acceptOf = (settings: FileFieldDefinition) => settings.extensions.map((extension) => `.${extension}`).join(',');

/** How many files the field holds at most. */
export const maxFilesOf = (settings: FileFieldDefinition) => (settings.isMultiple ? settings.maxFiles ?? Number.POSITIVE_INFINITY : 1);

/** The checks of one file; null when it may be sent. */
export function fileProblem(settings: FileFieldDefinition, file: File): string | null {
  if (!settings.extensions.includes(extensionOf(file.name))) return `“${file.name}” is not an accepted type (${settings.extensions.join(', ')}).`;
  if (file.size > settings.maxBytes) return `“${file.name}” is larger than ${formatFileSize(settings.maxBytes)}.`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  return null;
}

/** Adds picked files to a selection: refused ones are named, a single-file field replaces its file, the count is capped. */
export function addFiles(settings: FileFieldDefinition, current: FileSelection, picked: readonly File[]): { next: FileSelection; problems: string[] } {
  const problems: string[] = [];
  const accepted = picked.filter((file) => {
    const problem = fileProblem(settings, file);
    if (problem) problems.push(problem);
    return !problem;
  });
  if (!settings.isMultiple) {
    if (accepted.length > 1) problems.push('Only one file can be attached.');
    return { next: accepted.length ? { kept: [], added: [accepted[0]] } : current, problems };
  }
  const isAlreadyChosen = (file: File) => current.added.some((other) => other.name === file.name && other.size === file.size && other.lastModified === file.lastModified);
  const fresh = accepted.filter((file) => !isAlreadyChosen(file));
  const room = Math.max(0, maxFilesOf(settings) - current.kept.length - current.added.length);
  if (fresh.length > room) problems.push(`At most ${maxFilesOf(settings)} files can be attached${room ? `; ${fresh.length - room} ${fresh.length - room === 1 ? 'was' : 'were'} left out` : ''}.`);
  return { next: { kept: current.kept, added: [...current.added, ...fresh.slice(0, room)] }, problems };
}

/** The submit-time check of a whole selection (the same rules; a file list built elsewhere is checked too). */
export function selectionProblems(settings: FileFieldDefinition, selection: FileSelection): string[] {
  const problems = selection.added.map((file) => fileProblem(settings, file)).filter((p): p is string => !!p);
  const count = selection.kept.length + selection.added.length;
  if (count > maxFilesOf(settings)) problems.push(settings.isMultiple ? `At most ${maxFilesOf(settings)} files can be attached.` : 'Only one file can be attached.');
  return problems;
}

/** What may be attached, as a sentence: "PDF or PNG files of up to 5 MB each, at most 3." / "One PDF file of up to 10 MB." */
export function fileRules(settings: FileFieldDefinition): string {
  const names = settings.extensions.map((e) => e.toUpperCase());
  const kinds = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  // A no-break space: a phone broke "10" from "MB".
  const size = formatFileSize(settings.maxBytes).replace(' ', '\u00a0');
  if (!settings.isMultiple) return `One ${kinds} file of up to ${size}.`;
  return `${kinds} files of up to ${size} each${settings.maxFiles ? `, at most ${settings.maxFiles}` : ''}.`;
}

export function FileField({ name, field, value, onChange, errors, required }: {
  name: string; field: FieldDefinition; value: FileSelection; onChange: (next: FileSelection) => void; errors?: string[]; required?: boolean;
}) {
  const settings = field.file ?? { extensions: [], maxBytes: 0 };
  const id = `field-${name}-${useId()}`;
  const [problems, setProblems] = useState<string[]>([]);
  const [isDragging, setDragging] = useState(false);
  const shown = [...problems, ...(errors ?? [])];
  const count = value.kept.length + value.added.length;
  const isFull = count >= maxFilesOf(settings) && !!settings.isMultiple;

  const pick = (files: readonly File[]) => {
    if (!files.length) return;
    const { next, problems: found } = addFiles(settings, value, files);
    setProblems(found);
    if (next !== value) onChange(next);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    pick([...event.dataTransfer.files]);
  };
  const removeKept = (file: AttachmentSummary) => { setProblems([]); onChange({ ...value, kept: value.kept.filter((f) => f.id !== file.id) }); };
  const removeAdded = (file: File) => { setProblems([]); onChange({ ...value, added: value.added.filter((f) => f !== file) }); };

  return (
    <fieldset aria-describedby={cx(`${id}-hint`, shown.length ? `${id}-error` : undefined)}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
        {field.label}{required && <span className="ml-0.5 text-rose-500" aria-hidden="true">*</span>}
      </legend>
      <div onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}
        className={cx('flex flex-col items-start gap-2 rounded-lg border border-dashed px-4 py-3 sm:flex-row sm:items-center sm:gap-4',
          isDragging ? 'border-indigo-400 bg-indigo-50/60 dark:border-indigo-400 dark:bg-indigo-500/10' : 'border-slate-300 dark:border-slate-700',
          shown.length > 0 && 'border-rose-400 dark:border-rose-500/70')}>
        <label className={cx('inline-flex h-9 shrink-0 cursor-pointer items-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
          'has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-500',
          'dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700',
          isFull && 'pointer-events-none opacity-50')}>
          <Icon name="upload" className="size-4" />
          {settings.isMultiple ? 'Choose files' : count ? 'Replace file' : 'Choose a file'}
          <input id={id} type="file" className="sr-only" data-field={name} accept={acceptOf(settings)} multiple={!!settings.isMultiple} disabled={isFull}
            aria-label={`${field.label}: ${settings.isMultiple ? 'choose files' : 'choose a file'}`} aria-invalid={shown.length > 0 || undefined}
            aria-describedby={cx(`${id}-hint`, shown.length ? `${id}-error` : undefined)}
            // Reset so choosing the same file again (after removing it) is seen as a change.
            onChange={(event) => { pick([...(event.target.files ?? [])]); event.target.value = ''; }} />
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {field.help ? `${field.help} ` : ''}{fileRules(settings)}<span className="max-sm:hidden"> You can also drop {settings.isMultiple ? 'them' : 'it'} here.</span>
        </p>
      </div>
      {count > 0 && (
        <ul aria-label={`${field.label}: files`} className="mt-2 divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
          {value.kept.map((file) => (
            <FileRow key={`kept-${file.id}`} name={file.name} size={file.size} onRemove={() => removeKept(file)} />
          ))}
          {value.added.map((file, index) => (
            <FileRow key={`new-${index}-${file.name}`} name={file.name} size={file.size} isNew onRemove={() => removeAdded(file)} />
          ))}
        </ul>
      )}
      <div id={`${id}-error`} aria-live="polite">
        {shown.map((message) => <p key={message} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{message}</p>)}
      </div>
    </fieldset>
  );
}

function FileRow({ name, size, isNew, onRemove }: { name: string; size: number; isNew?: boolean; onRemove: () => void }) {
  return (
    <li className="flex items-center gap-3 px-3 py-2 text-sm">
      <Icon name="file" className="size-4 shrink-0 text-slate-400" />
      <span className="min-w-0 flex-1 truncate text-slate-800 dark:text-slate-100" title={name}>{name}</span>
      {isNew && <span className="shrink-0 rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300">New</span>}
      <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatFileSize(size)}</span>
      <button type="button" onClick={onRemove} aria-label={`Remove ${name}`} title="Remove"
        className={cx('shrink-0 rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-rose-600 dark:hover:bg-slate-800 dark:hover:text-rose-400', focusRing)}>
        <Icon name="x" className="size-4" />
      </button>
    </li>
  );
}

// ---- Detail page ----

/** The server serves these inline (`?disposition=inline`): images and PDFs. */
export const isPreviewable = (mime: string) => /^image\/(png|jpe?g|gif|webp|avif|bmp)$/i.test(mime) || mime === 'application/pdf';

export function AttachmentList({ definition, recordId, files }: { definition: ResourceDefinition; recordId: number; files: AttachmentSummary[] }) {
  const [preview, setPreview] = useState<AttachmentSummary | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);
  if (!files.length) return <span className="text-slate-400">{EMPTY}</span>;
  const download = async (file: AttachmentSummary) => {
    setDownloading(file.id);
    try { await downloadAttachment(definition, recordId, file); } catch { /* the wrapper reported it */ } finally { setDownloading(null); }
  };
  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
        {files.map((file) => (
          <li key={file.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
            <Icon name={file.mime.startsWith('image/') ? 'eye' : 'file'} className="size-4 shrink-0 text-slate-400" />
            {/* At least 10rem for the name before the buttons wrap below it: on a phone it was cut to a few letters. */}
            <button type="button" onClick={() => download(file)} title={`Download ${file.name}`}
              className={cx('min-w-0 flex-[1_1_10rem] truncate rounded text-left font-medium text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>
              {file.name}
            </button>
            <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatFileSize(file.size)}</span>
            <span className="ml-auto inline-flex gap-1">
              {isPreviewable(file.mime) && (
                <Button variant="ghost" size="sm" onClick={() => setPreview(file)} aria-label={`Preview ${file.name}`}><Icon name="eye" className="size-4" />Preview</Button>
              )}
              <Button variant="ghost" size="sm" onClick={() => download(file)} isLoading={downloading === file.id} aria-label={`Download ${file.name}`}>
                {downloading !== file.id && <Icon name="download" className="size-4" />}Download
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {preview && <PreviewModal definition={definition} recordId={recordId} file={preview} onClose={() => setPreview(null)} onDownload={() => download(preview)} />}
    </>
  );
}

/** The file fetched inline as a Blob (bearer sent), shown from a blob: url revoked on close. Escape closes (Dialog). */
function PreviewModal({ definition, recordId, file, onClose, onDownload }: {
  definition: ResourceDefinition; recordId: number; file: AttachmentSummary; onClose: () => void; onDownload: () => void;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    let created: string | null = null;
    fetchAttachmentPreview(definition, recordId, file)
      .then((blob) => {
        if (!active) return;
        // The server's type decides how the browser renders it; fall back to the summary's mime.
        created = URL.createObjectURL(blob.type ? blob : new Blob([blob], { type: file.mime }));
        setUrl(created);
      })
      .catch((failure: unknown) => { if (active) setError(isApiError(failure) ? failure.message : 'The file could not be loaded.'); });
    return () => { active = false; if (created) URL.revokeObjectURL(created); };
  }, [definition, recordId, file]);
  const isPdf = file.mime === 'application/pdf';
  return (
    <Modal open title={file.name} onClose={onClose} size="lg">
      <div className="flex min-h-64 items-center justify-center bg-slate-50 p-3 dark:bg-slate-950/40">
        {!url && !error && <Spinner label={`Loading ${file.name}`} />}
        {error && <EmptyState icon="alert" title="The preview could not be loaded" description={error} />}
        {url && (isPdf
          ? <iframe src={url} title={file.name} className="h-[70vh] w-full rounded-md bg-white" />
          : <img src={url} alt={file.name} className="max-h-[70vh] max-w-full rounded-md object-contain" />)}
      </div>
      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:justify-end dark:border-slate-800">
        <Button variant="secondary" onClick={onClose}>Close</Button>
        <Button onClick={onDownload}><Icon name="download" className="size-4" />Download</Button>
      </div>
    </Modal>
  );
}
