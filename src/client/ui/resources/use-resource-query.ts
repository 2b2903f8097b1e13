// A list screen's state lives in the URL query (page, search, sort, direction, filters) so reload,
// back and shared links show the same list; the API query is derived from it (docs/resources.md).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import type { PageMeta } from '../../../shared/pagination';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { api, isApiError } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
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

/** A list page as fetched: the answer, and when the service worker's cache answered, when that copy was fetched. */
interface FetchedList { answer: ListAnswer; cachedAt: Date | null }

/**
 * GET /api/{name}?<params> through the query cache (lib/query.ts): going back to a list shows the
 * cached page at once and refreshes it; a write elsewhere on the page or a live event about the
 * resource refetches it; leaving the screen cancels the request. While the next page or a new search
 * loads, the rows shown stay (no blank table between pages).
 */
export function useResourceList(definition: ResourceDefinition, query: ListQuery, extra: Record<string, string | number> = {}, refreshMs?: number) {
  const params = listQueryToParams(query, extra);
  const base = resourceBase(definition);
  const result = useQuery({
    // The base is part of the key: a partner's list (/partner/invoice) is not the staff's (/partner-invoice).
    queryKey: queryKeys.list(definition.name, { base, ...params }),
    queryFn: async ({ signal }): Promise<FetchedList> => {
      let cachedAt: Date | null = null;
      const answer = await api.get<ListAnswer>(base, { params, signal, onCachedAt: (at) => { cachedAt = at; } });
      return { answer, cachedAt };
    },
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  }, queryClient);
  const { refetch } = result;
  const reload = useCallback(() => { void refetch(); }, [refetch]);
  return {
    answer: result.data?.answer ?? null,
    isLoading: result.isFetching,
    error: result.error ? errorMessage(result.error) : null,
    reload,
    cachedAt: result.data?.cachedAt ?? null,
  };
}

/** The message of a failed query, for an empty state: the server's words (the wrapper already toasted). */
export const errorMessage = (failure: unknown): string => (isApiError(failure) ? failure.message : 'An error occurred.');

/** `value` after it has stayed unchanged for `ms` (the search box, ~300 ms). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
