// The admin's audit screen (issue 20): every change across the product, newest first, filtered by
// person, resource, record, action and dates (kept in the address, so Back and a reload keep them),
// with a CSV export of the same filters. Admin accounts only; the server checks it too.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { resourceDefinitions, resourceByName } from '../../../shared/resources/registry';
import { routePath } from '../../../shared/routes';
import { AUDIT_ACTIONS, type AuditEntryView, type AuditPage } from '../../../shared/schemas/audit';
import { api, isApiError } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { formatDateTime, inSentence } from '../../lib/format';
import { queryClient, queryKeys } from '../../lib/query';
import type { ScreenProps } from '../../routes';
import { isAdminAccount } from '../../../shared/permissions';
import { auth } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { DateRangeField } from '../../ui/date-input';
import { EmptyState } from '../../ui/empty-state';
import { TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { SkeletonList } from '../../ui/loading';
import { Pagination } from '../../ui/pagination';
import { AuditChanges } from '../../ui/resources/audit-changes';
import { resourcePath } from '../../ui/resources/resource-values';


/** The address's filters; `actor_name` only labels the chosen person. */
const FILTER_KEYS = ['actor_id', 'actor_name', 'resource', 'record_id', 'action', 'created_at_from', 'created_at_to'] as const;

// Each staff definition names one kind of record once (admin, manager and user share the people table).
const resourceOptions = resourceDefinitions
  .map((definition) => ({ value: definition.name, label: definition.label }))
  .sort((a, b) => a.label.localeCompare(b.label));

const actionTones = { create: 'green', update: 'indigo', transition: 'amber', delete: 'red' } as const;

const loadPeople = async (search: string): Promise<ChoiceOption[]> =>
  (await api.get<{ data: ChoiceOption[] }>('/audit-log/people', { params: search ? { search } : {}, silent: true })).data;

export default function AuditLog(props: ScreenProps) {
  const { user } = useSnapshot(auth.app);
  // The menu offers it to admins only; a typed address is turned away here and by the server.
  if (user && !isAdminAccount(user)) return <Redirect to={routePath('access-denied')} replace />;
  return <AuditLogScreen {...props} />;
}

function AuditLogScreen({ account }: ScreenProps) {
  const [pathname, setLocation] = useLocation();
  const search = useSearch();
  const query = new URLSearchParams(search);
  const page = Math.max(1, Number(query.get('page')) || 1);
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, query.get(key) ?? ''])) as Record<(typeof FILTER_KEYS)[number], string>;
  const [isExporting, setExporting] = useState(false);

  /** The filters sent to the server (the person's name stays in the address). */
  const params = () => {
    const sent: Record<string, string> = {};
    for (const key of FILTER_KEYS) if (key !== 'actor_name' && filters[key]) sent[key] = filters[key];
    return sent;
  };

  // Keyed by the address's filters and page: Back shows the cached page at once and refreshes it.
  const sent = { ...params(), page };
  const { data: result = null, error: failure, refetch } = useQuery({
    queryKey: queryKeys.screen('audit-log', account, sent),
    queryFn: ({ signal }) => api.get<AuditPage>('/audit-log', { account, params: sent, silent: true, signal }),
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'The changes could not be loaded.') : null;

  /** Changing a filter starts again at page 1. */
  const change = (next: Partial<Record<(typeof FILTER_KEYS)[number] | 'page', string>>) => {
    const params = new URLSearchParams(search);
    if (!('page' in next)) params.delete('page');
    for (const [key, value] of Object.entries(next)) {
      if (value) params.set(key, value);
      else params.delete(key);
    }
    const text = params.toString();
    setLocation(text ? `${pathname}?${text}` : pathname, { replace: !('page' in next) });
  };
  const hasFilters = FILTER_KEYS.some((key) => filters[key]);

  const onExport = async () => {
    setExporting(true);
    try {
      const blob = await api.get<Blob>('/audit-log/export', { account, params: params(), responseType: 'blob' });
      saveBlob(blob, `audit-log-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch {
      // The wrapper has said what went wrong.
    } finally {
      setExporting(false);
    }
  };

  const person = filters.actor_id ? { id: Number(filters.actor_id), label: filters.actor_name || `Person ${filters.actor_id}` } : null;

  return (
    <>
      <PageHeader title="Audit log" description="Every change made through the app, newest first: who made it, when, and what each field was before and after."
        actions={<Button variant="secondary" onClick={onExport} isLoading={isExporting}><Icon name="download" className="size-4" />Export CSV</Button>} />
      <Card className="mb-6 p-4 sm:p-5">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SearchableSelect label="Person" name="actor_id" value={person} load={loadPeople} placeholder="Anyone"
            onChange={(option) => change({ actor_id: option ? String(option.id) : '', actor_name: option?.label ?? '' })} />
          <SelectField label="Kind of record" name="resource" options={resourceOptions} emptyLabel="Any" value={filters.resource}
            onChange={(event) => change({ resource: event.target.value })} />
          <RecordIdField value={filters.record_id} onChange={(record_id) => change({ record_id })} />
          <SelectField label="Change" name="action" options={AUDIT_ACTIONS} emptyLabel="Any" value={filters.action}
            onChange={(event) => change({ action: event.target.value })} />
          <div className="sm:col-span-2">
            <DateRangeField label="Date" value={{ from: filters.created_at_from, to: filters.created_at_to }}
              onChange={(range) => change({ created_at_from: range.from, created_at_to: range.to })} />
          </div>
          {hasFilters && (
            <div className="flex items-end justify-end sm:col-span-2">
              <Button variant="ghost" size="sm" onClick={() => setLocation(pathname, { replace: true })}><Icon name="x" className="size-4" />Clear filters</Button>
            </div>
          )}
        </div>
      </Card>
      <Card>
        {error && (
          <EmptyState icon="alert" title="The changes could not be loaded" description={error}
            action={<Button variant="secondary" size="sm" onClick={() => void refetch()}>Try again</Button>} />
        )}
        {!result && !error && <SkeletonList rows={6} />}
        {result && !result.data.length && (
          <EmptyState icon="clock" title="No changes found" description={hasFilters ? 'No change matches these filters.' : 'Changes made through the app will be listed here.'} />
        )}
        {result && result.data.length > 0 && (
          <ul aria-label="Changes" className="divide-y divide-slate-200 dark:divide-slate-800">
            {result.data.map((entry) => <AuditEntry key={entry.id} entry={entry} />)}
          </ul>
        )}
      </Card>
      {result && result.meta.is_total_capped && (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
          More than {result.meta.total.toLocaleString('en')} changes match. The newest {result.meta.total.toLocaleString('en')} are paged here;
          narrow the filters or the dates to reach older ones, or export them all.
        </p>
      )}
      {result && <Pagination className="mt-4" meta={result.meta} onPage={(next) => change({ page: String(next) })} />}
    </>
  );
}

/** A record id as typed; sent once it is a whole number. */
function RecordIdField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  // The address changed (Clear filters, Back): the field follows it, during render rather than in an effect.
  const [shown, setShown] = useState(value);
  if (shown !== value) { setShown(value); setText(value); }
  const isValid = text === '' || /^\d{1,10}$/.test(text);
  return (
    <TextField label="Record number" name="record_id" inputMode="numeric" value={text} placeholder="Any"
      errors={isValid ? undefined : ['Enter the record\u2019s number, digits only.']}
      onChange={(event) => {
        const next = event.target.value.trim();
        setText(next);
        if (next === '' || /^\d{1,10}$/.test(next)) onChange(next);
      }} />
  );
}

function AuditEntry({ entry }: { entry: AuditEntryView }) {
  const definition = resourceByName[entry.resource];
  const href = definition && entry.record_id !== null && entry.action !== 'delete' ? resourcePath(definition, 'show', { id: entry.record_id }) : null;
  const action = AUDIT_ACTIONS.find((a) => a.value === entry.action);
  // A creation or deletion lists every field: folded; an edit shows its few changes at once.
  const isFolded = entry.action === 'create' || entry.action === 'delete';
  return (
    <li className="px-4 py-4 sm:px-5">
      <p className="text-sm text-slate-900 dark:text-white">{entry.summary}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
        <time dateTime={entry.created_at} className="tabular-nums">{formatDateTime(entry.created_at)}</time>
        <span aria-hidden="true">·</span>
        <Badge tone={actionTones[entry.action]}>{action?.label ?? entry.action}</Badge>
        <span>{entry.actor?.type === 'partner' ? 'Partner portal' : entry.actor ? 'Staff account' : 'Public link'}</span>
        {href && (
          <>
            <span aria-hidden="true">·</span>
            <Link href={href} className={cx('rounded font-medium text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>
              Open {inSentence(definition.label)} {entry.record_id}
            </Link>
          </>
        )}
      </p>
      {entry.changes.length > 0 && (isFolded ? (
        <details className="mt-2 text-xs">
          <summary className={cx('cursor-pointer rounded text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white', focusRing)}>
            {entry.action === 'create' ? 'What was filled in' : 'What it held'} ({entry.changes.length} {entry.changes.length === 1 ? 'field' : 'fields'})
          </summary>
          <AuditChanges entry={entry} className="mt-2" />
        </details>
      ) : entry.changes.length > 1 ? <AuditChanges entry={entry} className="mt-2" /> : null)}
    </li>
  );
}
