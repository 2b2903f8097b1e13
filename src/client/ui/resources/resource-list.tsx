// The list screen generated from a definition: server-side pagination (spec §9 control), debounced
// search, sortable headers, filters, spec §4 status badges, CSV export of the filtered list, row
// actions by permission and delete with confirmation. Its state lives in the url query. A workflow
// adds the rows' transitions as actions and tick boxes with a bar of the transitions all selected allow.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { abilitiesOf, actionWords, type FilterDefinition, type ResourceDefinition } from '../../../shared/resources/define';
import { isAdmin } from '../../../shared/permissions';
import type { AccountType } from '../../../shared/routes';
import { auth, useCan } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { cx } from '../../ui/cx';
import { DateRangeField, isIsoDate } from '../../ui/date-input';
import { EmptyState } from '../../ui/empty-state';
import { inputClass, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Modal } from '../../ui/modal';
import { Pagination } from '../../ui/pagination';
import { DataTable, TableSkeleton, type TableColumn } from '../../ui/table';
import { deleteRecord, exportCsv, labelFor, loadOptions, useOptionsOffline, useResourceRecord } from './resource-api';
import { invalidateAfterWrite } from '../../lib/query';
import { ResourceForm, type ResourceFormProps } from './resource-form';
import { CachedNotice } from '../cached-notice';
import { availableTransitions, displayText, displayValue, resourcePath, workflowFor } from './resource-values';
import { BulkBar, RowTransitions, useTransitionRunner } from './workflow';
import { ImportLink } from './import-link';
import { QueuedItems } from './queued-items';
import { isQueuedSave, offlineOptionsOf, useOfflineUnavailable } from '../../lib/outbox-actions';
import {
  effectiveSort, nextSort, useDebounced, useListQuery, useResourceList, type ListQuery, type Row,
} from './use-resource-query';
import { inSentence } from '../../lib/format';

export const SEARCH_DEBOUNCE_MS = 300;

/** Behaviour one resource adds beside the generic screens (resource-screen.tsx holds them). */
export interface ResourceCustomization {
  /** Cells shown differently from the generic display (active users: how long ago). */
  cells?: Record<string, (row: Row) => ReactNode>;
  /** Where a row's title links; default its show screen. */
  rowHref?: (row: Row, can: (permission?: string) => boolean) => string | null;
  /** Extra row actions, before view / edit / delete. */
  rowActions?: (row: Row, can: (permission?: string) => boolean) => ReactNode;
  /** A form used instead of the generic one (roles tick permissions by area). */
  form?: ComponentType<ResourceFormProps>;
  /** Buttons beside Export CSV in the page header (the time-sheet upload). */
  headerActions?: ReactNode;
  /**
   * Issue 22: a bulk action of the list's own (resend invitations): rows it applies to can be ticked,
   * and the bar it renders shows above the table while some are.
   */
  bulk?: { isSelectable: (row: Row) => boolean; bar: (rows: Row[], done: () => void) => ReactNode };
  /** Refetch the list every N ms (active users). */
  refreshMs?: number;
  description?: string;
  /** The description a partner login reads on the portal, written for them (the staff one speaks of "the partner firms"). */
  partnerDescription?: string;
  /** The screen decides a row in its own dialog (time sheets: with the file and the note), so no generic row buttons; the bulk bar stays. */
  hasOwnRowDecision?: boolean;
  /** Between the page header and the list (the expense totals of the filtered list). */
  aboveList?: ReactNode;
  /** Dialog width for forms that open over the list. */
  dialogSize?: 'md' | 'lg';
  /** Below a record's fields on its detail page (a pre-billing's lines beside the time sheets). */
  detailSection?: (row: Row) => ReactNode;
  /** A record's title on its detail page, when its title field does not read well as stored (a pre-billing's month). */
  recordTitle?: (row: Row) => string;
  /**
   * What an empty, unfiltered list says, where "No {plural} yet" reads oddly (the holder's own
   * documents read "No own documents yet"): written for the person who sees it.
   */
  emptyState?: { title: string; description?: string };
}

export interface ResourceListProps {
  definition: ResourceDefinition;
  account: AccountType;
  /** The parent record's id (questions of a category). */
  parentId?: string | null;
  customization?: ResourceCustomization;
  title?: string;
  description?: ReactNode;
  /** Above the title: a back link to the parent. */
  breadcrumb?: ReactNode;
  /**
   * A list shown below another record (its detail page's `related`): only the rows whose `field` is
   * `id`, under an h2, adding in a dialog with `field` preset. Its page, search and sort are its own,
   * not the url's, so several lists on one page do not share them.
   */
  embedded?: { field: string; id: number | string };
}

type ColumnOrdering = Pick<ResourceDefinition, 'columns' | 'listOrder' | 'workflow'>;

/** The column saying where a record stands: its workflow's, else a status, a stage or a (check's) result. */
export function stateColumn(definition: ColumnOrdering): string | undefined {
  const key = definition.workflow?.field ?? ['status', 'stage', 'result'].find((name) => definition.columns.includes(name));
  return key && definition.columns.includes(key) ? key : undefined;
}

/**
 * Where the state column goes when the definition's `listOrder` does not place it: third, after the
 * title and the column that says whose or which it is. A list's state is what people scan for, and
 * field order often puts it last, past what a laptop (1366 px) shows beside the row's buttons.
 */
const STATE_POSITION = 2;

/** The list's columns: those the definition puts first (its `listOrder`, the most useful), then the rest in field order. */
export function listColumns(definition: ColumnOrdering): string[] {
  const first = (definition.listOrder ?? []).filter((key) => definition.columns.includes(key));
  const ordered = [...first, ...definition.columns.filter((key) => !first.includes(key))];
  const state = stateColumn(definition);
  if (!state || first.includes(state) || ordered.indexOf(state) <= STATE_POSITION) return ordered;
  const others = ordered.filter((key) => key !== state);
  return [...others.slice(0, STATE_POSITION), state, ...others.slice(STATE_POSITION)];
}

/** A list state kept in the component (an embedded list), with the url list's update semantics. */
function useLocalListQuery() {
  const [query, setQuery] = useState<ListQuery>({ page: 1, search: '', filters: {} });
  const update = useCallback((change: Partial<ListQuery>, _options: { replace?: boolean } = {}) => {
    setQuery((current) => ({ ...current, ...change, page: change.page ?? 1 }));
  }, []);
  return { query, update };
}

/** The screens' permission check: the one check (`useCan`) over the account's one list (spec §6). */
export function usePermissionCheck(account: AccountType) {
  return useCan(account);
}

/**
 * Whether the caller may add, edit or delete a definition's records: its permission, and for
 * records only an admin writes (issue 20, admin accounts) the admin role as well.
 */
export function useWriteCheck(definition: Pick<ResourceDefinition, 'isWrittenByAdminOnly'>, account: AccountType) {
  const can = usePermissionCheck(account);
  const roles = useSnapshot(auth[account]).permissions.roles;
  return (permission?: string) => can(permission) && (!definition.isWrittenByAdminOnly || isAdmin({ roles }));
}

export const iconAction = cx('inline-flex size-8 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing);

type DialogState = { mode: 'create' } | { mode: 'edit'; id: number } | null;

export function ResourceList({ definition, account, parentId, customization = {}, title, description, breadcrumb, embedded }: ResourceListProps) {
  const can = usePermissionCheck(account);
  const canWrite = useWriteCheck(definition, account);
  const urlList = useListQuery(definition);
  const localList = useLocalListQuery();
  const { query, update } = embedded ? localList : urlList;
  // By value: the embedded object is rebuilt on every render of the page holding the list.
  const [embeddedField, embeddedId] = [embedded?.field, embedded?.id];
  const extra = useMemo(() => ({
    ...(definition.parent && parentId ? { [definition.parent.field]: parentId } : {}),
    ...(embeddedField && embeddedId !== undefined ? { [embeddedField]: embeddedId } : {}),
  }), [definition.parent, parentId, embeddedField, embeddedId]);
  const presets = useMemo(() => (embeddedField && embeddedId !== undefined ? { [embeddedField]: String(embeddedId) } : undefined), [embeddedField, embeddedId]);
  const { answer, isLoading, error, reload, cachedAt } = useResourceList(definition, query, extra, customization.refreshMs);
  const sort = effectiveSort(definition, query);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const [isExporting, setExporting] = useState(false);
  const exportReasonId = useId();
  const [dialog, setDialog] = useState<DialogState>(null);
  const words = actionWords(definition);
  const plural = words.records;
  // Where focus goes when the row it was on is gone (deleted): once the dialog has closed and handed
  // focus back to the row's button (its own restore), the next frame moves it to the list.
  const listRef = useRef<HTMLElement>(null);
  const [isFocusingList, setFocusingList] = useState(false);
  useEffect(() => {
    if (!isFocusingList || deleting) return;
    const frame = requestAnimationFrame(() => {
      listRef.current?.focus();
      setFocusingList(false);
    });
    return () => cancelAnimationFrame(frame);
  }, [isFocusingList, deleting]);
  // ?highlight=<id> (a notification's link, any list): that row is tinted and scrolled into view once.
  const highlightedId = Number(new URLSearchParams(useSearch()).get('highlight')) || null;
  const scrolledToRef = useRef<number | null>(null);
  useEffect(() => {
    if (!highlightedId || !answer || scrolledToRef.current === highlightedId) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-row-key="${highlightedId}"]`);
    if (!row) return;
    scrolledToRef.current = highlightedId;
    const isReducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    row.scrollIntoView?.({ block: 'center', behavior: isReducedMotion ? 'auto' : 'smooth' });
  }, [highlightedId, answer]);
  const titleOf = (row: Row) => displayText(definition.fields[definition.titleKey], definition.titleKey, row, 'list', workflowFor(definition, definition.titleKey)) || `#${row.id}`;

  // Workflow: rows carry the caller's transitions; ticked rows (of this page) get the bulk bar.
  const rows = answer?.data ?? [];
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<number>>(new Set());
  // The transition invalidated this list (lib/query.ts): it refetches by itself.
  // Offline, decisions wait for the connection; self-service steps queue (lib/outbox-actions).
  const unavailable = useOfflineUnavailable(definition.name);
  const [decisionCount, setDecisionCount] = useState(0);
  const transitions = useTransitionRunner(definition, (_answer, { isBulk }) => {
    if (isBulk) setSelectedIds(new Set());
    setDecisionCount((count) => count + 1);
  });
  // A decided row often leaves the list (filtered by "pending") with the button that opened the dialog,
  // and focus fell to the page top. It then goes to the list, whose count is announced as it refetches.
  // After the dialog's own restore, which runs once it has unmounted; a button still there keeps it.
  useEffect(() => {
    if (decisionCount === 0) return undefined;
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) listRef.current?.focus();
    });
    return () => clearTimeout(timer);
  }, [decisionCount]);
  const queryKey = JSON.stringify(query);
  useEffect(() => { setSelectedIds(new Set()); }, [queryKey]);
  const { bulk } = customization;
  const hasWorkflowActions = (!!definition.workflow && rows.some((row) => availableTransitions(row).length > 0)) || (!!bulk && rows.some(bulk.isSelectable));
  const isSelectable = (row: Row) => (bulk ? bulk.isSelectable(row) : availableTransitions(row).length > 0);
  const selectedRows = rows.filter((row) => selectedIds.has(row.id) && isSelectable(row));
  const toggle = (row: Row) => setSelectedIds((current) => {
    const next = new Set(current);
    if (next.has(row.id)) next.delete(row.id); else next.add(row.id);
    return next;
  });
  const toggleAll = () => {
    const selectable = rows.filter(isSelectable);
    setSelectedIds(selectable.every((row) => selectedIds.has(row.id)) ? new Set() : new Set(selectable.map((row) => row.id)));
  };

  const createPath = resourcePath(definition, 'create', { parentId });
  const canAdd = canWrite(definition.permissions.add);
  // Issue 26: a form that can wait in the outbox needs its pickers' choices offline: fetched here while online.
  useOptionsOffline(offlineOptionsOf(definition), canAdd && isQueuedSave(definition.name));
  const addAction = canAdd && (createPath && !embedded
    ? <Link href={createPath} className={cx('inline-flex h-10 items-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400', focusRing)}><Icon name="plus" className="size-4" />{words.add}</Link>
    // An embedded list adds in a dialog even when the resource has a create screen: there the related field is preset.
    : (!definition.routes.create || embedded) && <Button onClick={() => setDialog({ mode: 'create' })}><Icon name="plus" className="size-4" />{words.add}</Button>);

  const onExport = async () => {
    setExporting(true);
    try { await exportCsv(definition, query, extra); } catch { /* the wrapper reported it */ } finally { setExporting(false); }
  };

  const onConfirmDelete = async () => {
    if (!deleting) return;
    setIsDeleting(true);
    const isDeleted = await deleteRecord(definition, deleting.id, deleting);
    setIsDeleting(false);
    setDeleting(null);
    if (!isDeleted) return; // refused: the server's message was toasted, nothing else changes
    setFocusingList(true);
    // The delete invalidated this list; the last row of a later page goes back a page.
    if (answer && answer.data.length === 1 && query.page > 1) update({ page: query.page - 1 });
  };

  const columns: TableColumn<Row>[] = listColumns(definition).map((key, index) => {
    const field = definition.fields[key];
    const isPrimary = key === definition.titleKey || (index === 0 && !definition.columns.includes(definition.titleKey));
    return {
      key,
      header: field.label,
      isSortable: definition.sortable.includes(key),
      isPrimary,
      align: field.input === 'number' ? 'right' : 'left',
      render: (row) => {
        const custom = customization.cells?.[key];
        if (custom) return custom(row);
        const content = displayValue(field, key, row, 'list', workflowFor(definition, key));
        if (!isPrimary) return content;
        const href = customization.rowHref ? customization.rowHref(row, can) : can(definition.permissions.view) ? resourcePath(definition, 'show', { id: row.id, parentId }) : null;
        return href
          ? <Link href={href} className={cx('rounded text-slate-900 hover:text-indigo-600 hover:underline dark:text-white dark:hover:text-indigo-300', focusRing)}>{content}</Link>
          : content;
      },
    };
  });

  const rowActions = (row: Row) => {
    const name = titleOf(row);
    const showPath = resourcePath(definition, 'show', { id: row.id, parentId });
    const editPath = resourcePath(definition, 'edit', { id: row.id, parentId });
    return (
      <>
        {definition.workflow && !customization.hasOwnRowDecision && <RowTransitions row={row} title={name} unavailable={unavailable} onStart={(transition) => transitions.start(transition, [row], name)} />}
        {customization.rowActions?.(row, can)}
        {showPath && can(definition.permissions.view) && (
          <Link href={showPath} className={iconAction} aria-label={`View ${name}`} title="View"><Icon name="eye" className="size-4" /></Link>
        )}
        {abilitiesOf(row).update && (editPath
          ? <Link href={editPath} className={iconAction} aria-label={`Edit ${name}`} title="Edit"><Icon name="pencil" className="size-4" /></Link>
          : !definition.routes.edit && <button type="button" className={iconAction} aria-label={`Edit ${name}`} title="Edit" onClick={() => setDialog({ mode: 'edit', id: row.id })}><Icon name="pencil" className="size-4" /></button>)}
        {abilitiesOf(row).delete && (
          <button type="button" className={cx(iconAction, 'hover:bg-rose-50 hover:text-rose-600 dark:hover:bg-rose-500/10 dark:hover:text-rose-400')}
            aria-label={`Delete ${name}`} title="Delete" onClick={() => setDeleting(row)}><Icon name="trash" className="size-4" /></button>
        )}
      </>
    );
  };
  const hasActions = !!customization.rowActions || canWrite(definition.permissions.edit) || canWrite(definition.permissions.delete)
    || (!!definition.routes.show && can(definition.permissions.view)) || hasWorkflowActions;

  const isFiltered = !!query.search || Object.keys(query.filters).length > 0;
  const clearAll = () => update({ search: '', filters: {} });

  // An empty list has nothing to export: the button says so, as a step that cannot be taken does (workflow.tsx), by
  // its tooltip and its description, rather than sitting greyed out with no reason given.
  const noExportReason = answer?.meta.total === 0
    ? (isFiltered ? 'Nothing matches the search and filters, so there is nothing to export.' : 'Nothing to export yet.')
    : null;
  const headerActions = (
    <>
      <Button variant="secondary" onClick={onExport} isLoading={isExporting} disabled={!answer || answer.meta.total === 0}
        title={noExportReason ?? undefined} aria-describedby={noExportReason ? exportReasonId : undefined}>
        {/* On a phone the header keeps to one line: the icon says it, the name stays for screen readers (issue 24). */}
        {!isExporting && <Icon name="download" className="size-4" />}<span className="max-sm:sr-only">Export CSV</span>
      </Button>
      {noExportReason && <span id={exportReasonId} className="sr-only">{noExportReason}</span>}
      {customization.headerActions}
      {canAdd && definition.importer && !embedded && <ImportLink definition={definition} parentId={parentId} />}
      {addAction}
    </>
  );

  const listDescription = account === 'partner' ? customization.partnerDescription : customization.description;

  return (
    <>
      {breadcrumb}
      {embedded
        ? <EmbeddedHeader title={title ?? definition.pluralLabel} description={description ?? listDescription} actions={headerActions} />
        : <PageHeader title={title ?? definition.pluralLabel} description={description ?? listDescription} actions={headerActions} />}
      <CachedNotice fetchedAt={cachedAt} className="mb-3" />
      {customization.aboveList}
      {/* Issue 26: also under a parent record (an onboarding's tasks marked done offline). */}
      <QueuedItems definition={definition} account={account} />
      <Card ref={listRef} tabIndex={-1} className="focus:outline-none">
        <ListToolbar definition={definition} query={query} update={update} sort={sort} />
        {/* Heard by screen readers after each search, filter or page: what the list now holds. */}
        <p role="status" className="sr-only">
          {answer ? `${answer.meta.total} ${answer.meta.total === 1 ? words.record : plural} found` : ''}
        </p>
        {!answer && isLoading && <TableSkeleton columns={Math.min(definition.columns.length, 5)} />}
        {!answer && !isLoading && error && (
          <EmptyState icon="alert" title={`${definition.pluralLabel} could not be loaded`} description={error}
            action={<Button variant="secondary" onClick={reload}>Try again</Button>} />
        )}
        {answer && answer.data.length === 0 && (isFiltered
          ? <EmptyState icon="search" title={`No ${plural} match`} description="Try another search or clear the filters."
              action={<Button variant="secondary" onClick={clearAll}>Clear search and filters</Button>} />
          : <EmptyState title={customization.emptyState?.title ?? `No ${plural} yet`} action={addAction || undefined}
              description={customization.emptyState ? customization.emptyState.description : canAdd ? words.addFirst : undefined} />)}
        {selectedRows.length > 0 && bulk && bulk.bar(selectedRows, () => { setSelectedIds(new Set()); reload(); })}
        {selectedRows.length > 0 && !bulk && (
          <BulkBar definition={definition} rows={selectedRows} onClear={() => setSelectedIds(new Set())}
            onStart={(transition) => transitions.start(transition, selectedRows, '', true)} />
        )}
        {answer && answer.data.length > 0 && (
          <DataTable caption={title ?? definition.pluralLabel} columns={columns} rows={answer.data} rowKey={(row) => row.id}
            sort={sort} onSort={(key) => update(nextSort(sort, key))} actions={hasActions ? rowActions : undefined} isBusy={isLoading}
            actionsPlacement={hasWorkflowActions ? 'footer' : 'corner'} highlightedKey={highlightedId}
            selection={hasWorkflowActions ? { isSelected: (row) => selectedIds.has(row.id), onToggle: toggle, onToggleAll: toggleAll, label: titleOf, isSelectable } : undefined} />
        )}
        {answer && answer.data.length > 0 && (
          <div className="border-t border-slate-200 px-4 py-3 empty:hidden dark:border-slate-800">
            <Pagination meta={answer.meta} onPage={(page) => update({ page })} />
          </div>
        )}
      </Card>

      <ConfirmDialog open={!!deleting} title={words.remove}
        message={deleting ? `“${titleOf(deleting)}” will be deleted. This cannot be undone.` : undefined}
        confirmLabel="Delete" isLoading={isDeleting} onConfirm={onConfirmDelete} onClose={() => { if (!isDeleting) setDeleting(null); }} />
      {transitions.dialog}

      {dialog && (
        <Modal open title={dialog.mode === 'create' ? words.add : words.edit} onClose={() => setDialog(null)} size={customization.dialogSize}>
          <DialogForm definition={definition} id={dialog.mode === 'edit' ? dialog.id : null} parentId={parentId} form={customization.form} presets={presets}
            onDone={(isSaved) => { setDialog(null); if (isSaved) invalidateAfterWrite(definition.name); }} />
        </Modal>
      )}
    </>
  );
}

/** The title row of a list below another record: a section heading, not the page's. */
function EmbeddedHeader({ title, description, actions }: { title: string; description?: ReactNode; actions: ReactNode }) {
  return (
    <div className="mt-8 mb-3 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
        {description && <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      <div className="flex items-center gap-2">{actions}</div>
    </div>
  );
}

function DialogForm({ definition, id, parentId, form: Form = ResourceForm, presets, onDone }: {
  definition: ResourceDefinition; id: number | null; parentId?: string | null; form?: ComponentType<ResourceFormProps>; presets?: Record<string, string>; onDone: (isSaved: boolean) => void;
}) {
  const { row, error } = useResourceRecord(definition, id);
  if (id !== null && error) return <EmptyState icon="alert" title={error} />;
  if (id !== null && !row) return <TableSkeleton rows={3} columns={1} />;
  return <Form key={row?.id ?? 'new'} definition={definition} row={row} parentId={parentId} presets={presets} isDialog onSaved={() => onDone(true)} onCancel={() => onDone(false)} />;
}

// ---- Toolbar: search, filters, sort on phones ----

function ListToolbar({ definition, query, update, sort }: {
  definition: ResourceDefinition; query: ListQuery; update: ReturnType<typeof useListQuery>['update']; sort: { key: string; direction: 'asc' | 'desc' };
}) {
  const [text, setText] = useState(query.search);
  const settled = useDebounced(text, SEARCH_DEBOUNCE_MS);
  const activeFilters = Object.keys(query.filters).length;
  const [isFiltersOpen, setFiltersOpen] = useState(activeFilters > 0);
  const filters = definition.filters ?? [];

  useEffect(() => {
    if (settled.trim() !== query.search) update({ search: settled }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the typed text settles
  }, [settled]);
  useEffect(() => {
    // Back / forward moved the url: the box follows it.
    if (query.search !== settled.trim()) setText(query.search);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the url changes
  }, [query.search]);

  // Short words for the order, so the choice fits a phone's select.
  const sortChoices = definition.sortable.flatMap((key) => {
    const { label, input, placeholder } = definition.fields[key];
    // A month typed as text (a pre-billing's YYYY-MM) orders by time too, not "Month: Z–A".
    const isTime = input === 'date' || placeholder?.startsWith('YYYY');
    const [up, down] = isTime ? ['oldest', 'newest'] : input === 'number' ? ['lowest', 'highest'] : ['A–Z', 'Z–A'];
    return [{ value: `${key}:asc`, label: `${label}: ${up}` }, { value: `${key}:desc`, label: `${label}: ${down}` }];
  });

  return (
    <div className="border-b border-slate-200 dark:border-slate-800">
      {/* One height for the search, the sort and the Filters button (h-10, the button's), so the row lines up. */}
      <div className="flex flex-wrap items-center gap-2 p-3 sm:p-4">
        <form role="search" className="relative w-full min-w-0 sm:w-auto sm:flex-1"
          onSubmit={(event) => { event.preventDefault(); if (text.trim() !== query.search) update({ search: text }); }}>
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input type="search" value={text} onChange={(event) => setText(event.target.value)}
            aria-label={`Search ${actionWords(definition).records}`} placeholder={`Search ${definition.search.map((k) => inSentence(definition.fields[k].label)).join(', ')}…`}
            className={cx(inputClass, 'h-10 pl-9 text-ellipsis')} />
        </form>
        <div className="flex w-full gap-2 empty:hidden sm:w-auto">
          {sortChoices.length > 0 && (
            // Phones have no column headers to click: the sort is a select there.
            <div className="min-w-0 flex-1 md:hidden">
              <SelectField name="sort" label="Sort by" isLabelHidden options={sortChoices} emptyLabel="Sort by…" className="h-10"
                value={`${sort.key}:${sort.direction}`}
                onChange={(event) => { const [key, direction] = event.target.value.split(':'); if (key) update({ sort: key, direction: direction as 'asc' | 'desc' }); }} />
            </div>
          )}
          {filters.length > 0 && (
            <Button variant="secondary" onClick={() => setFiltersOpen((open) => !open)} aria-expanded={isFiltersOpen} aria-controls={`filters-${definition.name}`}>
              {/* A phone keeps the icon only, as Export CSV does, so the sort beside it reads whole ("End (expiry) date: oldest"). */}
              <Icon name="filter" className="size-4" /><span className="max-sm:sr-only">Filters</span>
              {activeFilters > 0 && <Badge tone="indigo" className="ml-0.5">{activeFilters}</Badge>}
            </Button>
          )}
        </div>
      </div>
      {filters.length > 0 && isFiltersOpen && (
        <div id={`filters-${definition.name}`} role="group" aria-label="Filters" className="grid gap-4 border-t border-slate-200 bg-slate-50/60 p-3 sm:grid-cols-2 sm:p-4 lg:grid-cols-4 dark:border-slate-800 dark:bg-slate-800/20">
          {filters.map((filter) => (
            <div key={filter.key} className={cx((filter.type === 'date-range' || hasLongOptions(filter)) && 'sm:col-span-2')}>
              <FilterControl filter={filter} query={query} update={update} />
            </div>
          ))}
          {activeFilters > 0 && (
            <div className="flex items-end sm:col-span-2 lg:col-span-4">
              <Button variant="ghost" size="sm" onClick={() => update({ filters: {} })}><Icon name="x" className="size-4" />Clear filters</Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * A select whose choices are long sentences (spec §4's leave statuses) takes two columns, so the one
 * chosen reads whole instead of "Back fill arrangement is in p" (issue 24).
 */
const LONG_OPTION_CHARACTERS = 28;
const hasLongOptions = (filter: FilterDefinition) =>
  filter.type === 'select' && filter.options.some((option) => option.label.length > LONG_OPTION_CHARACTERS);

function FilterControl({ filter, query, update }: { filter: FilterDefinition; query: ListQuery; update: ReturnType<typeof useListQuery>['update'] }) {
  const setFilter = (changes: Record<string, string>) => {
    const next = { ...query.filters, ...changes };
    for (const key of Object.keys(next)) if (!next[key]) delete next[key];
    update({ filters: next });
  };
  switch (filter.type) {
    case 'select':
      return <SelectField name={`filter-${filter.key}`} label={filter.label} options={filter.options} emptyLabel="All" value={query.filters[filter.key] ?? ''} onChange={(event) => setFilter({ [filter.key]: event.target.value })} />;
    case 'boolean':
      return <SelectField name={`filter-${filter.key}`} label={filter.label} options={[{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }]} emptyLabel="All" value={query.filters[filter.key] ?? ''} onChange={(event) => setFilter({ [filter.key]: event.target.value })} />;
    case 'reference':
      return <ReferenceFilter filter={filter} value={query.filters[filter.key] ?? ''} onChange={(id) => setFilter({ [filter.key]: id })} />;
    case 'text':
      return <TextFilter filter={filter} value={query.filters[filter.key] ?? ''} onChange={(value) => setFilter({ [filter.key]: value })} />;
    case 'date-range':
      return <DateRangeFilter filter={filter} from={query.filters[`${filter.key}_from`] ?? ''} to={query.filters[`${filter.key}_to`] ?? ''} onChange={setFilter} />;
  }
}

function ReferenceFilter({ filter, value, onChange }: { filter: Extract<FilterDefinition, { type: 'reference' }>; value: string; onChange: (id: string) => void }) {
  const [choice, setChoice] = useState<ChoiceOption | null>(null);
  // An id from the url (reload, shared link) is shown by its label.
  useEffect(() => {
    if (!value) { setChoice(null); return; }
    if (choice && String(choice.id) === value) return;
    let active = true;
    labelFor(filter.reference.resource, value).then((found) => { if (active) setChoice(found); });
    return () => { active = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the url value only
  }, [value, filter.reference.resource]);
  return (
    <SearchableSelect name={`filter-${filter.key}`} label={filter.label} value={choice} placeholder="All"
      onChange={(next) => { setChoice(next); onChange(next ? String(next.id) : ''); }}
      load={(search) => loadOptions(filter.reference.resource, search)} />
  );
}

/** A whole value typed in (a department), applied when the field is left or Enter is pressed. */
function TextFilter({ filter, value, onChange }: { filter: FilterDefinition; value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => { setText(value); }, [value]);
  return (
    <TextField name={`filter-${filter.key}`} label={filter.label} value={text} placeholder="All"
      onChange={(event) => setText(event.target.value)}
      onBlur={() => { if (text.trim() !== value) onChange(text.trim()); }}
      onKeyDown={(event) => { if (event.key === 'Enter' && text.trim() !== value) onChange(text.trim()); }} />
  );
}

function DateRangeFilter({ filter, from, to, onChange }: { filter: FilterDefinition; from: string; to: string; onChange: (changes: Record<string, string>) => void }) {
  const [range, setRange] = useState({ from, to });
  useEffect(() => { setRange({ from, to }); }, [from, to]);
  const bad = [range.from, range.to].some((v) => v && !isIsoDate(v));
  const reversed = !bad && range.from && range.to && range.from > range.to;
  const onRange = (next: { from: string; to: string }) => {
    setRange(next);
    const valid = [next.from, next.to].every((v) => !v || isIsoDate(v)) && !(next.from && next.to && next.from > next.to);
    if (valid && (next.from !== from || next.to !== to)) onChange({ [`${filter.key}_from`]: next.from, [`${filter.key}_to`]: next.to });
  };
  return (
    <DateRangeField label={filter.label} value={range} onChange={onRange}
      error={bad ? 'Use the format YYYY-MM-DD.' : reversed ? 'The start must be on or before the end.' : undefined} />
  );
}
