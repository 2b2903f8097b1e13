// Issue 22: records in bulk from a CSV or XLSX file, for any definition with an `importer`
// (docs/resources.md "Importer"). Three steps on one page: the template, the file checked row by row
// (nothing written), then the import, all rows or only the valid ones, with the invitations'
// progress for people. The server decides everything; this screen shows what it says.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { z } from 'zod';
import { IMPORT_LIST_SEPARATOR, type ResourceDefinition } from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath } from '../../../shared/routes';
import type { ImportPreview, ImportPreviewRow, ImportStatus } from '../../../shared/schemas/import';
import { api, isApiError } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import type { ScreenProps } from '../../routes';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { FormAlert } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { BackLink } from '../../ui/resources/resource-detail';
import { resourcePath } from '../../ui/resources/resource-values';
import { useWriteCheck } from '../../ui/resources/resource-list';
import { inSentence } from '../../lib/format';

type PreviewRow = ImportPreviewRow;
type Preview = ImportPreview;

/** How many rows the preview table shows at once: a 5,000-row file is summed up, not drawn whole. */
const SHOWN_ROWS = 200;
/** How often the invitations' progress is asked for while the job sends them. */
export const PROGRESS_POLL_MS = 2000;

export default function ImportScreen({ account, routeName }: ScreenProps) {
  const definition = resourceByName[routeName.replace(/\.import$/, '')];
  if (!definition?.importer) return <EmptyState icon="compass" title="This screen is not available." />;
  return <Importer key={definition.name} definition={definition} account={account} />;
}

function Importer({ definition, account }: { definition: ResourceDefinition; account: ScreenProps['account'] }) {
  const canWrite = useWriteCheck(definition, account);
  const from = new URLSearchParams(useSearch()).get('from');
  const back = resourcePath(definition, 'index', { parentId: from }) ?? (definition.parent ? routePath(`${definition.parent.resource}.index`) : null);
  const plural = inSentence(definition.pluralLabel);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'checking' | 'importing' | null>(null);
  const [uploaded, setUploaded] = useState(0);
  const [result, setResult] = useState<{ status: ImportStatus; message: string } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();

  if (!canWrite(definition.permissions.add)) {
    return (
      <>
        {back && <BackLink href={back}>Back to {plural}</BackLink>}
        <PageHeader title={`Import ${plural}`} />
        <Card><EmptyState icon="shield" title={`Only an admin can import ${plural}.`} description="Ask one of the firm's admins to do it." /></Card>
      </>
    );
  }

  const formWith = (extra: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(extra)) form.append(key, value);
    form.append('file', file!, file!.name);
    return form;
  };

  const onCheck = async () => {
    if (!file) { setFileError('Choose a CSV or XLSX file first.'); return; }
    setBusy('checking');
    setFileError(null);
    setPreview(null);
    setResult(null);
    try {
      const answer = await uploadWithProgress<{ data: Preview }>(`/import/${definition.name}/preview`, formWith(), setUploaded, { form: true });
      setPreview(answer.data);
    } catch (error) {
      if (isApiError(error)) setFileError(error.errors.file?.[0] ?? error.message);
    } finally { setBusy(null); }
  };

  const onImport = async (mode: 'all' | 'valid') => {
    setBusy('importing');
    try {
      const answer = await uploadWithProgress<{ data: ImportStatus; message: string }>(`/import/${definition.name}`, formWith({ mode }), setUploaded, { form: true });
      setResult({ status: answer.data, message: answer.message });
      // New records: their lists refetch, and what counts them (the dashboard, the setup checklist).
      invalidateAfterWrite(definition.name);
      notify.success(answer.message);
      setPreview(null);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (error) {
      // Refused (rows with errors, or a file changed meanwhile): the server's rows replace the preview.
      const rows = isApiError(error) ? (error.data as { rows?: PreviewRow[] } | undefined)?.rows : undefined;
      if (rows && preview) setPreview({ ...preview, rows: mergeRows(preview.rows, rows) });
      if (isApiError(error)) setFileError(error.message);
    } finally { setBusy(null); }
  };

  return (
    <>
      {back && <BackLink href={back}>Back to {plural}</BackLink>}
      <PageHeader title={`Import ${plural}`}
        description={`Add many ${plural} at once from a spreadsheet. Nothing is saved until you have seen every row checked and chosen to import.`} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <TemplateStep definition={definition} />
        <Card>
          <CardHeader title="2. Upload and check your file" description="Every row is checked as if it were added by hand: each problem is named by its row and column." />
          <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-end sm:p-5">
            <div className="flex-1">
              <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">File (CSV or XLSX)</label>
              <input id={inputId} ref={inputRef} type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-invalid={!!fileError || undefined} aria-describedby={fileError ? `${inputId}-error` : undefined}
                onChange={(event) => { setFile(event.target.files?.[0] ?? null); setPreview(null); setFileError(null); }}
                className={cx('block w-full rounded-lg text-sm text-slate-700 ring-1 ring-inset ring-slate-300 file:mr-3 file:rounded-l-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 dark:text-slate-200 dark:ring-slate-700 dark:file:bg-slate-800 dark:file:text-slate-100', focusRing)} />
            </div>
            <Button onClick={onCheck} isLoading={busy === 'checking'} disabled={!file || !!busy}>
              {busy !== 'checking' && <Icon name="search" className="size-4" />}Check file
            </Button>
          </div>
          {busy && uploaded < 1 && <p role="status" className="px-5 pb-3 text-sm text-slate-600 dark:text-slate-300">Uploading… {Math.round(uploaded * 100)}%</p>}
          {fileError && <div id={`${inputId}-error`} className="px-4 pb-4 sm:px-5"><FormAlert message={fileError} /></div>}
          {preview && <PreviewTable preview={preview} />}
          {preview && <ImportChoice preview={preview} plural={plural} busy={busy} onImport={onImport} />}
        </Card>
        {result && <ImportProgress definition={definition} initial={result.status} message={result.message} back={back} />}
      </div>
    </>
  );
}

/** Rows the server refused replace the ones shown, by row number. */
function mergeRows(shown: PreviewRow[], refused: PreviewRow[]): PreviewRow[] {
  const byRow = new Map(refused.map((row) => [row.row, row]));
  return shown.map((row) => byRow.get(row.row) ?? row);
}

/** Step 1: the template, and how each column is written. */
function TemplateStep({ definition }: { definition: ResourceDefinition }) {
  const [isLoading, setLoading] = useState<'csv' | 'xlsx' | null>(null);
  const download = async (format: 'csv' | 'xlsx') => {
    setLoading(format);
    try {
      const blob = await api.get<Blob>(`/import/${definition.name}/template`, { params: { format }, responseType: 'blob' });
      saveBlob(blob, `${definition.name}-import-template.${format}`);
    } catch { /* the wrapper reported it */ } finally { setLoading(null); }
  };
  const columns = useMemo(() => columnGuide(definition), [definition]);
  return (
    <Card>
      <CardHeader title="1. Start from the template"
        description="Keep the heading row as it is; columns may come in any order. Names are matched whatever their case."
        actions={(
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => download('csv')} isLoading={isLoading === 'csv'}>{isLoading !== 'csv' && <Icon name="download" className="size-4" />}Template (CSV)</Button>
            <Button variant="secondary" onClick={() => download('xlsx')} isLoading={isLoading === 'xlsx'}>{isLoading !== 'xlsx' && <Icon name="download" className="size-4" />}Template (XLSX)</Button>
          </div>
        )} />
      <dl className="grid gap-x-6 gap-y-2 p-4 text-sm sm:grid-cols-2 sm:p-5 lg:grid-cols-3">
        {columns.map((column) => (
          <div key={column.header}>
            <dt className="font-medium text-slate-900 dark:text-white">
              {column.header}{column.isRequired && <span className="ml-1 text-rose-600 dark:text-rose-400" aria-label="required">*</span>}
            </dt>
            <dd className="text-slate-600 dark:text-slate-300">{column.how}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Each column's heading, whether it must be filled, and how to write it. */
function columnGuide(definition: ResourceDefinition): { header: string; isRequired: boolean; how: string }[] {
  const importer = definition.importer!;
  return importer.columns.map((column) => {
    const field = definition.fields[column.field];
    const shape = definition.schema.shape[column.field] as z.ZodType | undefined;
    const isRequired = !!shape && !shape.safeParse(undefined).success && !(column.field in (importer.defaults ?? {}));
    let how = 'Text.';
    if (importer.columns.length && column.field === definition.titleKey) how = 'Text; every row needs one.';
    if (column.matchBy === 'email') how = `The ${inSentence(field.label)}'s email address; they must already be on the ${field.reference?.resource ?? ''} list.`;
    else if (field.input === 'reference') how = `The name of an existing ${inSentence(resourceByName[field.reference?.resource ?? '']?.label ?? field.label)}.`;
    else if (field.input === 'multiselect') how = `Names of existing ${inSentence(field.label)}, separated by "${IMPORT_LIST_SEPARATOR}".`;
    else if (field.input === 'list') how = `Separated by "${IMPORT_LIST_SEPARATOR}".`;
    else if (field.input === 'date') how = 'A date written YYYY-MM-DD.';
    else if (field.input === 'number') how = 'A number.';
    else if (field.input === 'email') how = 'An email address, used once.';
    else if (field.options) how = `One of: ${field.options.map((o) => o.label).join(', ')}.`;
    else if (field.optionsFrom) how = `One of the ${inSentence(definition.fields[field.optionsFrom].label)}, written the same way.`;
    const defaulted = importer.defaults?.[column.field];
    if (defaulted !== undefined) how += ` Empty means ${String(field.options?.find((o) => o.value === defaulted)?.label ?? defaulted)}.`;
    return { header: column.header, isRequired, how };
  });
}

function PreviewTable({ preview }: { preview: Preview }) {
  const [isErrorsOnly, setErrorsOnly] = useState(preview.invalid > 0);
  const rows = isErrorsOnly ? preview.rows.filter((row) => row.errors.length) : preview.rows;
  const shown = rows.slice(0, SHOWN_ROWS);
  return (
    <section aria-labelledby="import-preview-title" className="border-t border-slate-200 dark:border-slate-800">
      <div className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <h3 id="import-preview-title" className="text-sm font-semibold text-slate-900 dark:text-white" role="status">
          {preview.total === 1 ? '1 row checked' : `${preview.total} rows checked`}: {preview.valid} ready to import, {preview.invalid} with errors.
        </h3>
        {preview.invalid > 0 && preview.valid > 0 && (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input type="checkbox" checked={isErrorsOnly} onChange={(event) => setErrorsOnly(event.target.checked)} className="size-4 rounded border-slate-300 dark:border-slate-600" />
            Show only rows with errors
          </label>
        )}
      </div>
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-max text-left text-sm">
          <caption className="sr-only">Rows of the file, each with its errors</caption>
          <thead className="bg-slate-50 text-xs font-medium text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-3 py-2">Row</th>
              <th scope="col" className="px-3 py-2">Problems</th>
              {preview.columns.map((column) => <th key={column} scope="col" className="px-3 py-2">{column}</th>)}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {shown.map((row) => {
              const bad = new Set(row.errors.map((error) => error.column));
              return (
                <tr key={row.row} className={row.errors.length ? 'bg-rose-50/60 dark:bg-rose-500/5' : undefined}>
                  <th scope="row" className="px-3 py-2 font-medium text-slate-900 tabular-nums dark:text-white">{row.row}</th>
                  <td className="px-3 py-2 align-top">
                    {row.errors.length === 0
                      ? <Badge tone="green">Ready</Badge>
                      : (
                        // On a phone the problems wrap within the screen (8rem: the card's margins and the Row column), so they read without scrolling the table sideways.
                        <ul className="max-w-[min(28rem,calc(100vw-8rem))] space-y-1 text-rose-700 dark:text-rose-300">
                          {row.errors.map((error, index) => (
                            <li key={index}>{error.column ? <><span className="font-medium">{error.column}:</span> {error.message}</> : error.message}</li>
                          ))}
                        </ul>
                      )}
                  </td>
                  {preview.columns.map((column) => (
                    <td key={column} className={cx('px-3 py-2 align-top text-slate-700 dark:text-slate-300', bad.has(column) && 'font-medium text-rose-700 dark:text-rose-300')}>
                      {row.values[column] || <span className="text-slate-400 dark:text-slate-500">—</span>}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length > SHOWN_ROWS && (
        <p className="px-4 py-3 text-sm text-slate-600 sm:px-5 dark:text-slate-300">
          The first {SHOWN_ROWS} of {rows.length} rows are shown. Fix these in your file and check it again to see the rest.
        </p>
      )}
    </section>
  );
}

function ImportChoice({ preview, plural, busy, onImport }: { preview: Preview; plural: string; busy: string | null; onImport: (mode: 'all' | 'valid') => void }) {
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5 dark:border-slate-800">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {preview.invalid === 0
          ? `Every row is ready. All ${preview.total} ${plural} are added together, or none if anything goes wrong.`
          : preview.valid === 0
            ? 'No row can be imported yet. Fix the problems in your file, then check it again.'
            : `Fix the ${preview.invalid === 1 ? 'row' : 'rows'} with errors and check the file again, or import only the ${preview.valid} ready ${preview.valid === 1 ? 'row' : 'rows'} now.`}
      </p>
      <div className="flex flex-wrap gap-2">
        {preview.invalid > 0 && preview.valid > 0 && (
          <Button variant="secondary" onClick={() => onImport('valid')} isLoading={busy === 'importing'} disabled={!!busy}>
            Import {preview.valid} valid {preview.valid === 1 ? 'row' : 'rows'}
          </Button>
        )}
        <Button onClick={() => onImport('all')} isLoading={busy === 'importing' && preview.invalid === 0} disabled={!!busy || preview.invalid > 0}>
          Import all {preview.total} {preview.total === 1 ? 'row' : 'rows'}
        </Button>
      </div>
    </div>
  );
}

const isSending = (status: ImportStatus) => status.invitations_total > 0 && !status.invitations_done_at;

/** After the import: what was added and, for people, the invitations going out. */
export function ImportProgress({ definition, initial, message, back }: { definition: ResourceDefinition; initial: ImportStatus; message: string; back: string | null }) {
  // The invitations' progress, asked for every PROGRESS_POLL_MS while the job sends them; a failed ask
  // is only asked again at the next tick (silent: the progress bar is not worth a toast).
  const { data: status = initial } = useQuery({
    queryKey: queryKeys.screen('import', definition.name, initial.id),
    queryFn: ({ signal }) => api.get<{ data: ImportStatus }>(`/import/${definition.name}/${initial.id}`, { silent: true, signal }).then((answer) => answer.data),
    initialData: initial,
    staleTime: PROGRESS_POLL_MS,
    refetchInterval: (query) => (isSending(query.state.data ?? initial) ? PROGRESS_POLL_MS : false),
  }, queryClient);
  const percent = status.invitations_total ? Math.round((status.invitations_sent / status.invitations_total) * 100) : 100;
  return (
    <Card>
      <CardHeader title="3. Imported" description={message} actions={back && <a href={back} className={cx('text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>See the {inSentence(definition.pluralLabel)}</a>} />
      {status.invitations_total > 0 && (
        <div className="space-y-2 p-4 sm:p-5">
          <div className="flex items-center justify-between text-sm">
            <span id="invitations-label" className="font-medium text-slate-900 dark:text-white">Invitations</span>
            <span role="status" className="text-slate-600 tabular-nums dark:text-slate-300">
              {status.invitations_done_at
                ? `All ${status.invitations_total} invitations have been sent.`
                : `${status.invitations_sent} of ${status.invitations_total} sent…`}
            </span>
          </div>
          <div role="progressbar" aria-labelledby="invitations-label" aria-valuemin={0} aria-valuemax={status.invitations_total} aria-valuenow={status.invitations_sent}
            className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
            <div className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            They go out a few a second so that mail servers accept them. You can leave this page: sending goes on, and each person's invitation is valid for 7 days.
          </p>
        </div>
      )}
    </Card>
  );
}
