// How a definition's field shows in a list cell or on a detail page, and where a record's screens are.
import type { ReactNode } from 'react';
import {
  badgeTone, workflowState, type AttachmentSummary, type AvailableTransition, type FieldDefinition, type ResourceDefinition, type ResourceRoutes, type WorkflowDefinition,
} from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath, routesByName } from '../../../shared/routes';
import { formatDate, formatDateTime } from '../../lib/format';
import { currentArea } from '../../lib/navigation';
import { Badge } from '../../ui/badge';
import { richTextToPlain } from '../../ui/rich-text-editor';
import type { ChoiceOption } from '../../ui/combobox';

export const EMPTY = '—';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;
/** A day as the lists show it (spec §9: YYYY-MM-DD). */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A reference's related record(s) as choices: `country: {id, name}` -> {id, label}. */
export function relatedOptions(field: FieldDefinition, row: Record<string, unknown> | null | undefined): ChoiceOption[] {
  if (!field.reference || !row) return [];
  const related = row[field.reference.relation];
  const list = Array.isArray(related) ? related : related ? [related] : [];
  return list
    .filter((item): item is Record<string, unknown> => !!item && typeof item === 'object')
    .map((item) => ({ id: item.id as number, label: String(item[field.reference!.labelKey] ?? item.label ?? item.name ?? `#${String(item.id)}`) }));
}

/** The workflow owning `key` as its status field, if any: its states give the label and tone. */
export const workflowFor = (definition: Pick<ResourceDefinition, 'workflow'>, key: string): WorkflowDefinition | undefined =>
  (definition.workflow?.field === key ? definition.workflow : undefined);

/** The transitions this caller may make on a row (the server's `available_transitions`; never recomputed here). */
export function availableTransitions(row: Record<string, unknown> | null | undefined): AvailableTransition[] {
  const list = row?.available_transitions;
  return Array.isArray(list) ? (list as AvailableTransition[]).filter((t) => t && typeof t.name === 'string') : [];
}

/** A file field's attachments as rows carry them (`[{id, name, size, mime}]`). */
export function attachmentsOf(row: Record<string, unknown> | null | undefined, key: string): AttachmentSummary[] {
  const list = row?.[key];
  return Array.isArray(list) ? (list as AttachmentSummary[]).filter((item) => item && typeof item === 'object' && 'id' in item) : [];
}

/** Plain text of a value (search-free contexts: titles, confirm messages, aria labels). */
export function displayText(field: FieldDefinition | undefined, key: string, row: Record<string, unknown>, mode: 'list' | 'detail' = 'list', workflow?: WorkflowDefinition): string {
  if (!field) return String(row[key] ?? '');
  if (workflow && row[key] !== null && row[key] !== undefined && row[key] !== '') return workflowState(workflow, row[key]).label;
  if (field.input === 'file') return attachmentsOf(row, key).map((file) => file.name).join(', ');
  if (field.reference) {
    const related = relatedOptions(field, row);
    return related.length ? related.map((o) => o.label).join(', ') : '';
  }
  const value = row[key];
  if (value === null || value === undefined || value === '') return '';
  if (field.options) {
    const labelOf = (v: unknown) => field.options!.find((o) => String(o.value) === String(v))?.label ?? String(v);
    return Array.isArray(value) ? value.map(labelOf).join(', ') : labelOf(value);
  }
  if (field.input === 'richtext') return richTextToPlain(String(value));
  if (field.input === 'boolean') return value === true || value === 'true' || value === 1 ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'string' && TIMESTAMP.test(value)) {
    // spec §9: dates read YYYY-MM-DD; a detail page adds the time of a timestamp.
    return mode === 'detail' ? formatDateTime(value) : formatDate(value);
  }
  return String(value);
}

/**
 * A cell or detail value: badges for status fields (spec §4 colours; a workflow's status field shows
 * its state's label and tone — pass `workflowFor(definition, key)`), chips for many references.
 */
export function displayValue(field: FieldDefinition, key: string, row: Record<string, unknown>, mode: 'list' | 'detail' = 'list', workflow?: WorkflowDefinition): ReactNode {
  if (field.badge || workflow) {
    const value = row[key];
    if (value === null || value === undefined || value === '') return <span className="text-slate-400">{EMPTY}</span>;
    return <Badge tone={badgeTone(field, value, workflow)} canWrap={mode === 'list'}>{displayText(field, key, row, mode, workflow)}</Badge>;
  }
  if (field.input === 'file') {
    const files = attachmentsOf(row, key);
    if (!files.length) return <span className="text-slate-400">{EMPTY}</span>;
    // A list cell names one file, or counts them; the detail page lists them with downloads.
    return files.length === 1 ? <span className="line-clamp-1 max-w-xs break-all">{files[0].name}</span> : `${files.length} files`;
  }
  if (field.input === 'multiselect' && field.reference) {
    const related = relatedOptions(field, row);
    if (!related.length) return <span className="text-slate-400">{EMPTY}</span>;
    return (
      <span className="inline-flex flex-wrap justify-end gap-1 md:justify-start">
        {related.map((option) => <Badge key={option.id} tone="indigo">{option.label}</Badge>)}
      </span>
    );
  }
  const text = displayText(field, key, row, mode);
  if (!text) return <span className="text-slate-400">{EMPTY}</span>;
  if ((field.input === 'textarea' || field.input === 'richtext') && mode === 'list') return <span className="line-clamp-2 max-w-md">{text}</span>;
  // A squeezed column broke a date at its hyphen ("2026-" over "11-26").
  if (mode === 'list' && ISO_DAY.test(text)) return <span className="whitespace-nowrap">{text}</span>;
  return text;
}

type RouteKind = 'index' | 'create' | 'show' | 'edit';

/** The area whose screens are showing: the partner portal under /partner, else the main application. */
export { currentArea };

/**
 * Where a definition's API lives in the current area (ARCHITECTURE "Ownership"): `/{name}`, or for a
 * partner-owned definition on the partner portal `/partner/{segment}` (the api wrapper then sends
 * the partner's token).
 */
export function resourceBase(definition: ResourceDefinition): string {
  return currentArea() === 'partner' && definition.owner ? `/partner/${definition.owner.segment}` : `/${definition.name}`;
}

/** The definition's screens in the current area. */
const routesOf = (definition: ResourceDefinition): ResourceRoutes =>
  (currentArea() === 'partner' && definition.owner ? definition.owner.routes ?? { index: '' } : definition.routes);

/**
 * The definition as the partner portal shows it: its partner routes and the partner role's
 * permissions in place of the main application's, so the generic screens need not know the area.
 */
export function partnerView(definition: ResourceDefinition): ResourceDefinition {
  const { owner, workflow } = definition;
  if (!owner) return definition;
  // The workflow's states in the partner's words, wherever the generic screens name a state.
  const states = workflow && owner.states
    ? Object.fromEntries(Object.entries(workflow.states).map(([key, state]) => [key, { ...state, ...owner.states![key] }]))
    : workflow?.states;
  // The owner is always the caller's own firm there: no column, no filter (whose options are staff-only).
  const { [owner.column]: _owner, ...fields } = definition.fields;
  return {
    ...definition,
    fields,
    columns: definition.columns.filter((key) => key !== owner.column),
    sortable: definition.sortable.filter((key) => key !== owner.column),
    filters: definition.filters?.filter((filter) => filter.key !== owner.column),
    routes: owner.routes ?? { index: '' },
    permissions: owner.permissions,
    ...(workflow ? { workflow: { ...workflow, states: states! } } : {}),
  };
}

/**
 * The path of a resource's screen. Path parameters other than `id` (question/:category_id/create)
 * take the parent id; an index under a parent (/question-category/:id/question) takes it as `id`.
 */
export function resourcePath(definition: ResourceDefinition, kind: RouteKind, options: { id?: number | string; parentId?: number | string | null } = {}): string | null {
  const name = routesOf(definition)[kind];
  if (!name || !routesByName[name]) return null;
  const params: Record<string, string | number> = {};
  for (const [, param] of routesByName[name].path.matchAll(/:(\w+)/g)) {
    const value = param === 'id' && (kind === 'show' || kind === 'edit') ? options.id : options.parentId;
    if (value === undefined || value === null || value === '') return null;
    params[param] = value;
  }
  return routePath(name, params);
}

/** The parent id a route carries: the index's `id`, or the create / edit route's other parameter. */
export function parentIdFromParams(definition: ResourceDefinition, kind: RouteKind, params: Record<string, string>): string | null {
  if (!definition.parent) return null;
  if (kind === 'index') return params.id ?? null;
  const name = routesOf(definition)[kind];
  const path = name ? routesByName[name]?.path ?? '' : '';
  const other = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]).find((p) => p !== 'id');
  return other ? params[other] ?? null : null;
}

/** The definition a route name belongs to (as the partner portal sees it, for a partner route), and which of its screens it is. */
export function resourceForRoute(routeName: string): { definition: ResourceDefinition; kind: RouteKind } | null {
  for (const definition of Object.values(resourceByName)) {
    for (const kind of ['index', 'create', 'show', 'edit'] as const) {
      if (definition.routes[kind] === routeName) return { definition, kind };
      if (definition.owner?.routes?.[kind] === routeName) return { definition: partnerView(definition), kind };
    }
  }
  return null;
}

/**
 * Form fields of a definition: in the schema (or a file field, which is not), not display-only, not the
 * parent key taken from the route, not a workflow's status (the server sets it; transitions change it).
 */
export function formFieldKeys(definition: ResourceDefinition): string[] {
  return Object.entries(definition.fields)
    .filter(([key, field]) => field.isInForm !== false && (key in definition.schema.shape || field.input === 'file')
      && key !== definition.parent?.field && key !== definition.workflow?.field)
    .map(([key]) => key);
}
