// Calls of the generic resource routes (docs/resources.md), through the one API wrapper.
import { useCallback, useEffect, useState } from 'react';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { saveBlob } from '../../lib/download';
import { api, isApiError } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { ChoiceOption } from '../../ui/combobox';
import type { ListQuery, Row } from './use-resource-query';
import { listQueryToParams } from './use-resource-query';

export interface SaveAnswer { data: Row; message?: string }

/** GET /api/{name}/{id}; `error` holds the server's message (404: "City not found."). */
export function useResourceRecord(definition: ResourceDefinition, id: string | number | null | undefined) {
  const [row, setRow] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (id === null || id === undefined || id === '') return;
    let active = true;
    setRow(null);
    setError(null);
    api.get<{ data: Row }>(`/${definition.name}/${encodeURIComponent(String(id))}`, { silent: true })
      .then((answer) => { if (active) setRow(answer.data); })
      .catch((failure: unknown) => { if (active) setError(isApiError(failure) ? failure.message : 'An error occurred.'); });
    return () => { active = false; };
  }, [definition.name, id, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { row, error, reload };
}

/** GET /api/{resource}/options?search=&<params>: at most 50 choices for a searchable select. */
export async function loadOptions(resource: string, search: string, params: Record<string, string> = {}): Promise<ChoiceOption[]> {
  const answer = await api.get<{ data: { id: number; label: unknown }[] }>(`/${resource}/options`, {
    params: { ...params, ...(search ? { search } : {}) }, silent: true,
  });
  return answer.data.map((item) => ({ id: item.id, label: String(item.label ?? `#${item.id}`) }));
}

/**
 * The label of a chosen id when only the id is known (a reference filter read from the url):
 * the options answer when it holds it, else the record itself, else `#id`.
 */
export async function labelFor(resource: string, id: string): Promise<ChoiceOption> {
  try {
    const found = (await loadOptions(resource, '')).find((o) => String(o.id) === id);
    if (found) return found;
    const answer = await api.get<{ data: Record<string, unknown> }>(`/${resource}/${encodeURIComponent(id)}`, { silent: true });
    const label = answer.data.name ?? answer.data.title ?? answer.data.label;
    if (label) return { id: Number(id), label: String(label) };
  } catch { /* fall through */ }
  return { id: Number(id), label: `#${id}` };
}

export async function saveRecord(definition: ResourceDefinition, payload: Record<string, unknown>, id?: number | string | null): Promise<SaveAnswer> {
  const answer = id
    ? await api.put<SaveAnswer>(`/${definition.name}/${encodeURIComponent(String(id))}`, payload, { form: true })
    : await api.post<SaveAnswer>(`/${definition.name}`, payload, { form: true });
  if (answer.message) notify.success(answer.message);
  return answer;
}

/** DELETE; a refusal (409, record in use) is toasted by the wrapper with the server's message. */
export async function deleteRecord(definition: ResourceDefinition, id: number | string): Promise<boolean> {
  try {
    const answer = await api.delete<{ message?: string }>(`/${definition.name}/${encodeURIComponent(String(id))}`);
    notify.success(answer?.message || `${definition.label} deleted successfully.`);
    return true;
  } catch {
    return false;
  }
}

/** GET /api/{name}/export with the list's query: the CSV arrives as a Blob (bearer token sent) and is saved. */
export async function exportCsv(definition: ResourceDefinition, query: ListQuery, extra: Record<string, string | number> = {}): Promise<void> {
  const { page: _page, ...params } = listQueryToParams(query, extra);
  const blob = await api.get<Blob>(`/${definition.name}/export`, { params, responseType: 'blob' });
  saveBlob(blob, `${definition.name}-${new Date().toISOString().slice(0, 10)}.csv`);
}
