// A list screen's state lives in the URL query (page, search, sort, direction, filters) so reload,
// back and shared links show the same list; the API query is derived from it (docs/resources.md).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import type { PageMeta } from '../../../shared/pagination';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { api, isApiError } from '../../lib/api';
import { pwa } from '../../stores/pwa';
import { ui } from '../../stores/ui';
import { resourceBase } from './resource-values';

export type Row = Record<string, unknown> & { id: number };
export interface ListAnswer { data: Row[]; meta: PageMeta }

export interface ListQuery {
  page: number;
  search: string;
  sort?: string;
  direction?: 'asc' | 'desc';
  /** Filter query keys -> values (date ranges as key_from / key_to). */
  filters: Record<string, string>;
}

/** The query keys each filter owns: `status`, or `created_at_from` + `created_at_to`. */
export function filterKeys(definition: Pick<ResourceDefinition, 'filters'>): string[] {
  return (definition.filters ?? []).flatMap((filter) => (filter.type === 'date-range' ? [`${filter.key}_from`, `${filter.key}_to`] : [filter.key]));
}

export function parseListQuery(definition: Pick<ResourceDefinition, 'filters' | 'sortable'>, search: string): ListQuery {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const sort = params.get('sort') ?? undefined;
  const direction = params.get('direction');
  const filters: Record<string, string> = {};
  for (const key of filterKeys(definition)) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    search: params.get('search') ?? '',
    // An unknown sort in a hand-edited url is ignored rather than sent (the server would answer 422).
    sort: sort && definition.sortable.includes(sort) ? sort : undefined,
    direction: direction === 'asc' || direction === 'desc' ? direction : undefined,
    filters,
  };
}

/** The url query string of a list state (page 1 and empty values left out). */
export function listQueryToSearch(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.search.trim()) params.set('search', query.search.trim());
  if (query.sort) params.set('sort', query.sort);
  if (query.sort && query.direction) params.set('direction', query.direction);
  for (const [key, value] of Object.entries(query.filters)) if (value) params.set(key, value);
  if (query.page > 1) params.set('page', String(query.page));
  return params.toString();
}

/** The API parameters of a list (and of its CSV export, which ignores page). */
export function listQueryToParams(query: ListQuery, extra: Record<string, string | number> = {}): Record<string, string | number> {
  const params: Record<string, string | number> = { ...extra, page: query.page };
  if (query.search.trim()) params.search = query.search.trim();
  if (query.sort) params.sort = query.sort;
  if (query.sort && query.direction) params.direction = query.direction;
  for (const [key, value] of Object.entries(query.filters)) if (value) params[key] = value;
  return params;
}

/** The sort the list is shown in: the url's, or the definition's default. */
export function effectiveSort(definition: Pick<ResourceDefinition, 'defaultSort'>, query: ListQuery): { key: string; direction: 'asc' | 'desc' } {
  if (query.sort) return { key: query.sort, direction: query.direction ?? 'asc' };
  return definition.defaultSort;
}

/** Clicking a header: the same column flips direction, another column starts ascending. */
export function nextSort(current: { key: string; direction: 'asc' | 'desc' }, key: string): { sort: string; direction: 'asc' | 'desc' } {
  return { sort: key, direction: current.key === key && current.direction === 'asc' ? 'desc' : 'asc' };
}

export function useListQuery(definition: ResourceDefinition) {
  const search = useSearch();
  const [pathname, navigate] = useLocation();
  const query = useMemo(() => parseListQuery(definition, search), [definition, search]);
  const queryRef = useRef(query);
  queryRef.current = query;

  /** Changing anything but the page starts again at page 1. Typing replaces the history entry. */
  const update = useCallback((change: Partial<ListQuery>, options: { replace?: boolean } = {}) => {
    const next: ListQuery = { ...queryRef.current, ...change, page: change.page ?? 1 };
    const text = listQueryToSearch(next);
    navigate(`${pathname}${text ? `?${text}` : ''}`, { replace: options.replace });
  }, [navigate, pathname]);

  return { query, update };
}

export function useResourceList(definition: ResourceDefinition, query: ListQuery, extra: Record<string, string | number> = {}, refreshMs?: number) {
  const [answer, setAnswer] = useState<ListAnswer | null>(null);
  const [isLoading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const { dataVersion } = useSnapshot(ui);
  // When the service worker answered from its cache (offline), when that answer was fetched.
  const [cachedAt, setCachedAt] = useState<Date | null>(null);
  const params = listQueryToParams(query, extra);
  const key = JSON.stringify(params);
  const base = resourceBase(definition);

  useEffect(() => {
    let active = true;
    setLoading(true);
    api.get<ListAnswer>(base, { params: JSON.parse(key) as Record<string, string | number>, onCachedAt: (at) => { if (active) setCachedAt(at); } })
      .then((found) => { if (active) { setAnswer(found); setError(null); } })
      .catch((failure: unknown) => { if (active) setError(isApiError(failure) ? failure.message : 'An error occurred.'); })
      .finally(() => { if (active) setLoading(false); });
    return () => { active = false; };
  }, [base, key, version, dataVersion]);

  useEffect(() => {
    if (!refreshMs) return;
    const timer = window.setInterval(() => setVersion((v) => v + 1), refreshMs);
    return () => window.clearInterval(timer);
  }, [refreshMs]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefetchOnReconnect(cachedAt !== null || error !== null, reload);
  return { answer, isLoading, error, reload, cachedAt };
}

/**
 * Issue 14: what was shown from the service worker's cache (or failed for want of a network) is
 * fetched again as soon as the connection returns — the browser's 'online' event, or any request
 * answered by the network again (stores/pwa.ts) — so the "Offline — showing data from…" banner and
 * the old rows do not stay until a reload. Fresh data is left alone: a reconnect costs no request.
 */
export function useRefetchOnReconnect(isStale: boolean, refetch: () => void) {
  const { online } = useSnapshot(pwa);
  // Read when the connection changes, not followed: a list turning stale while online must not refetch itself.
  const stale = useRef(isStale);
  stale.current = isStale;
  const wasOnline = useRef(online);
  useEffect(() => {
    const isBack = online && !wasOnline.current;
    wasOnline.current = online;
    if (isBack && stale.current) refetch();
  }, [online, refetch]);
}

/** `value` after it has stayed unchanged for `ms` (the search box, ~300 ms). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
