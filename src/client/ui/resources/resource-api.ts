// Calls of the generic resource routes (docs/resources.md), through the one API wrapper.
import { useCallback, useEffect } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { AttachmentSummary, HistoryEntry, ResourceDefinition } from '../../../shared/resources/define';
import { saveBlob } from '../../lib/download';
import { isQueuedDelete, isQueuedSave, isQueuedTransition, queuedDeleteWords, queuedSaveWords, queuedTransitionWords } from '../../lib/outbox-actions';
import { currentPagePath, OutboxFullError, resubmitOutboxItem, sendOrQueue, type MutationInput } from '../../lib/outbox';
import { api, ApiError, isApiError, type FieldErrors } from '../../lib/api';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import { canonicalResource, invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { pwa } from '../../stores/pwa';
import type { ChoiceOption } from '../../ui/combobox';
import type { ListQuery, Row } from './use-resource-query';
import { errorMessage, listQueryToParams } from './use-resource-query';
import { currentArea, resourceBase, resourcePath } from './resource-values';
import { resourceByName } from '../../../shared/resources/registry';
import { today } from '../../../shared/dates';
import type { AuditEntryView } from '../../../shared/schemas/audit';

export interface SaveAnswer { data: Row; message?: string }

/**
 * GET /api/{name}/{id} through the query cache (key `['resource', name, 'record', id]`); `error` holds
 * the server's message (404: "City not found."). A write to the record (invalidateAfterWrite) or a live
 * event naming it refetches it. `isLive` false (forms): the values are fetched once per opening and not
 * swapped under someone typing. `isUnreachable`: no answer came back (offline, and the service worker
 * holds no copy of this record), which says nothing of whether it exists; it is fetched again when the
 * connection returns (lib/query.ts refetches what is on screen). Another record starts blank.
 */
export function useResourceRecord(definition: ResourceDefinition, id: string | number | null | undefined, { isLive = false } = {}) {
  const base = resourceBase(definition);
  const hasId = id !== null && id !== undefined && id !== '';
  const queryKey = queryKeys.record(definition.name, hasId ? id : '');
  const result = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<{ data: Row }>(`${base}/${encodeURIComponent(String(id))}`, { silent: true, signal }).then((answer) => answer.data),
    enabled: hasId,
    // A form reads its record once: a refetch behind an open form would not change what is typed anyway.
    ...(isLive ? {} : { refetchOnMount: 'always' as const, staleTime: Infinity }),
  }, queryClient);
  const { refetch } = result;
  const reload = useCallback(() => { void refetch(); }, [refetch]);
  const setRow = useCallback((row: Row) => { queryClient.setQueryData(queryKey, row); }, [queryKey]);
  const failure = result.isError ? result.error : null;
  return {
    row: hasId ? result.data ?? null : null,
    error: failure ? errorMessage(failure) : null,
    isUnreachable: isApiError(failure) && failure.status === null,
    reload,
    setRow,
  };
}

/**
 * GET /api/{resource}/options?search=&<params>: at most 50 choices for a searchable select. Offline, a
 * typed search has no cached answer of its own: the unfiltered answer the service worker holds (see
 * useOptionsOffline) is narrowed on the device instead, so a queued form can still be filled in.
 */
export async function loadOptions(resource: string, search: string, params: Record<string, string> = {}): Promise<ChoiceOption[]> {
  const base = resourceByName[resource] ? resourceBase(resourceByName[resource]) : `/${resource}`;
  const query = { ...params, ...(search ? { search } : {}) };
  try {
    // Cached a short while under the resource's options key: a picker opened twice asks once, and a
    // write to the resource (invalidateAfterWrite) makes the next opening ask again.
    return await queryClient.fetchQuery({
      queryKey: queryKeys.options(canonicalResource(resource), { base, ...query }),
      queryFn: async ({ signal }) => {
        const answer = await api.get<{ data: { id: number; label: unknown }[] }>(`${base}/options`, { params: query, silent: true, signal });
        return answer.data.map((item) => ({ id: item.id, label: String(item.label ?? `#${item.id}`) }));
      },
      staleTime: OPTIONS_FRESH_MS,
    });
  } catch (failure) {
    if (!search || !isApiError(failure) || failure.status !== null) throw failure;
    const term = search.toLowerCase();
    return (await loadOptions(resource, '', params)).filter((option) => option.label.toLowerCase().includes(term));
  }
}

/** How long a picker's choices are reused without asking again. */
const OPTIONS_FRESH_MS = 30_000;

/**
 * Issue 14: a form that can be queued offline (the outbox) needs the choices of its pickers offline
 * too, even if a picker was never opened online. While online, the unfiltered options of `resources`
 * are fetched through the same call a picker makes, so the service worker's per-account cache holds
 * exactly the answer the picker asks for offline. Done when the screen hosting the form mounts and
 * again whenever the connection returns; `isWanted` false (the user may not use the form) skips it.
 */
export function useOptionsOffline(resources: readonly string[], isWanted = true) {
  const { online } = useSnapshot(pwa);
  const key = resources.join(',');
  useEffect(() => {
    if (!isWanted || !online || !key) return;
    for (const resource of key.split(',')) {
      // Silent: a failure here only means the picker will ask again when opened.
      loadOptions(resource, '').catch(() => undefined);
    }
  }, [key, isWanted, online]);
}

/**
 * The label of a chosen id when only the id is known (a reference filter read from the url):
 * the options answer when it holds it, else the record itself, else `#id`.
 */
export async function labelFor(resource: string, id: string): Promise<ChoiceOption> {
  try {
    const found = (await loadOptions(resource, '')).find((o) => String(o.id) === id);
    if (found) return found;
    const base = resourceByName[resource] ? resourceBase(resourceByName[resource]) : `/${resource}`;
    const answer = await api.get<{ data: Record<string, unknown> }>(`${base}/${encodeURIComponent(id)}`, { silent: true });
    const label = answer.data.name ?? answer.data.title ?? answer.data.label;
    if (label) return { id: Number(id), label: String(label) };
  } catch { /* fall through */ }
  return { id: Number(id), label: `#${id}` };
}

export async function saveRecord(definition: ResourceDefinition, payload: Record<string, unknown>, id?: number | string | null): Promise<SaveAnswer> {
  const answer = id
    ? await api.put<SaveAnswer>(`${resourceBase(definition)}/${encodeURIComponent(String(id))}`, payload, { form: true })
    : await api.post<SaveAnswer>(resourceBase(definition), payload, { form: true });
  if (answer.message) notify.success(answer.message);
  invalidateAfterWrite(definition.name, answer?.data?.id ?? id);
  return answer;
}

/**
 * DELETE; a refusal (409, record in use) is toasted by the wrapper with the server's message. Issue 26:
 * withdrawing one's own expense claim waits in the outbox offline.
 */
export async function deleteRecord(definition: ResourceDefinition, id: number | string, row?: Row | null): Promise<boolean> {
  const url = `${resourceBase(definition)}/${encodeURIComponent(String(id))}`;
  const send = (headers: Record<string, string> = {}) => api.delete<{ message?: string }>(url, { headers });
  try {
    const result = isQueuedDelete(definition.name)
      ? await sendOrQueue({ method: 'DELETE', url, label: queuedDeleteWords(definition, row ?? { id }), resource: definition.name, recordId: id, editPath: currentPagePath(), isFixedHere: true }, send)
      : { answer: await send() };
    if (result.queued) {
      notify.info(QUEUED_MESSAGE);
      return true;
    }
    notify.success(result.answer?.message || `${definition.label} deleted successfully.`);
    // The deleted record is not fetched again (it would answer 404): dropped, then its lists and figures.
    queryClient.removeQueries({ queryKey: queryKeys.record(definition.name, id) });
    invalidateAfterWrite(definition.name, id);
    return true;
  } catch (error) {
    if (error instanceof OutboxFullError) notify.error(error.message);
    return false;
  }
}

/** GET /api/{name}/export with the list's query: the CSV arrives as a Blob (bearer token sent) and is saved. */
export async function exportCsv(definition: ResourceDefinition, query: ListQuery, extra: Record<string, string | number> = {}): Promise<void> {
  const { page: _page, ...params } = listQueryToParams(query, extra);
  const blob = await api.get<Blob>(`${resourceBase(definition)}/export`, { params, responseType: 'blob' });
  saveBlob(blob, `${definition.name}-${today()}.csv`);
}

// ---- Workflows (docs/resources.md "Workflows, files, notifications and reminders") ----

export interface TransitionAnswer { data: Row; message?: string }
export interface BulkResult { id: number; status: number; message?: string }

const recordPath = (definition: ResourceDefinition, id: number | string) => `${resourceBase(definition)}/${encodeURIComponent(String(id))}`;
const commentBody = (comment: string) => (comment.trim() ? { comment: comment.trim() } : {});
/** The fields a transition asks for (issue 24), when it asks for any. */
const valuesBody = (values: Record<string, unknown> | undefined) => (values && Object.keys(values).length ? { values } : {});

/**
 * POST /api/{name}/{id}/transitions/{transition}. 422 field errors come back to the dialog (no toast);
 * 403 / 409 / 404 are toasted by the wrapper with the server's message.
 */
export async function runTransition(definition: ResourceDefinition, id: number, transition: string, comment: string, values?: Record<string, unknown>, row?: Row | null): Promise<TransitionAnswer> {
  let answer: TransitionAnswer;
  const url = `${recordPath(definition, id)}/transitions/${encodeURIComponent(transition)}`;
  const body = { ...commentBody(comment), ...valuesBody(values) };
  const send = (headers: Record<string, string> = {}) => api.post<TransitionAnswer>(url, body, { form: true, headers });
  try {
    if (isQueuedTransition(definition.name, transition)) {
      // Issue 26: a self-service step (withdraw, start work, mark done) waits in the outbox offline.
      // Refused, it opens again on the record's page, in the transition's dialog (`?outbox=<id>`).
      const result = await sendOrQueue({
        method: 'POST', url, body, resource: definition.name, recordId: id,
        label: queuedTransitionWords(definition, transition, row ?? { id }),
        editPath: currentPagePath(), isFixedHere: true,
      }, send);
      if (result.queued) return { data: { id, [QUEUED_ITEM]: { id: result.queued.id, files: {} } }, message: QUEUED_MESSAGE };
      answer = result.answer;
    } else {
      answer = await send();
    }
  } catch (failure) {
    if (failure instanceof OutboxFullError) throw formRefusal(failure);
    // Refused (409: someone decided first; 403; 404): what is shown is out of date. A 422 only needs the comment.
    if (isApiError(failure) && failure.status !== null && failure.status !== 422) invalidateAfterWrite(definition.name, id);
    throw failure;
  }
  // Shown at once when the answer carries the row; the record, its lists and summaries refetch.
  if (answer?.data && Array.isArray(answer.data.available_transitions)) queryClient.setQueryData(queryKeys.record(definition.name, id), answer.data);
  invalidateAfterWrite(definition.name, id);
  return answer;
}

/** POST /api/{name}/transitions/{transition} `{ids, comment?}`: one result per id. */
export async function runBulkTransition(definition: ResourceDefinition, ids: number[], transition: string, comment: string, values?: Record<string, unknown>): Promise<BulkResult[]> {
  const answer = await api.post<{ data: BulkResult[] }>(`${resourceBase(definition)}/transitions/${encodeURIComponent(transition)}`, { ids, ...commentBody(comment), ...valuesBody(values) }, { form: true });
  invalidateAfterWrite(definition.name);
  return Array.isArray(answer?.data) ? answer.data : [];
}

/**
 * GET /api/{name}/{id}/history, oldest first, cached under the record (a write to the record refetches
 * it). `reloadKey` is part of the key: a new value (the record's status after a transition) fetches anew.
 */
export function useHistory(definition: ResourceDefinition, id: number | null, reloadKey: unknown) {
  const result = useQuery({
    queryKey: queryKeys.recordPart(definition.name, id ?? '', 'history', reloadKey),
    queryFn: ({ signal }): Promise<HistoryEntry[]> => api.get<{ data: HistoryEntry[] }>(`${recordPath(definition, id!)}/history`, { silent: true, signal })
      .then((answer) => (Array.isArray(answer.data) ? answer.data : [])),
    enabled: id !== null && !!definition.workflow,
    placeholderData: keepPreviousData,
  }, queryClient);
  const { refetch } = result;
  const retry = useCallback(() => { void refetch(); }, [refetch]);
  return { entries: result.data ?? null, error: result.error ? errorMessage(result.error) : null, retry };
}

/** One line of a record's History tab: a workflow step, or an edit from the audit trail (issue 20). */
export type TimelineEntry = ({ kind: 'step' } & HistoryEntry) | ({ kind: 'edit' } & AuditEntryView);

/**
 * A record's History tab, oldest first: GET /api/{name}/{id}/history (workflow steps, creation first)
 * merged with GET /api/{name}/{id}/changes (its creation and edits from the audit trail). The portal
 * reads the steps only. With a workflow, the step "Created" stands for the creation; without one, the
 * trail's. `reloadKey` refetches both (after a transition).
 */
export function useRecordTimeline(definition: ResourceDefinition, id: number | null, reloadKey: unknown) {
  const area = currentArea();
  const result = useQuery({
    queryKey: queryKeys.recordPart(definition.name, id ?? '', 'timeline', area, reloadKey),
    queryFn: async ({ signal }): Promise<TimelineEntry[]> => {
      const path = recordPath(definition, id!);
      const [stepList, editList] = await Promise.all([
        definition.workflow
          ? api.get<{ data: HistoryEntry[] }>(`${path}/history`, { silent: true, signal }).then((answer) => (Array.isArray(answer.data) ? answer.data : []))
          : [],
        area === 'partner'
          ? []
          : api.get<{ data: AuditEntryView[] }>(`${path}/changes`, { silent: true, signal }).then((answer) => (Array.isArray(answer.data) ? answer.data : [])),
      ]);
      const timeline: TimelineEntry[] = [
        ...stepList.map((entry) => ({ kind: 'step' as const, ...entry })),
        ...editList.filter((entry) => !(definition.workflow && entry.action === 'create')).map((entry) => ({ kind: 'edit' as const, ...entry })),
      ];
      // Oldest first; within one moment (one transaction) the step before the edit, as it was written.
      timeline.sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.kind === b.kind ? 0 : a.kind === 'step' ? -1 : 1));
      return timeline;
    },
    enabled: id !== null,
    placeholderData: keepPreviousData,
  }, queryClient);
  const { refetch } = result;
  const retry = useCallback(() => { void refetch(); }, [refetch]);
  return { entries: result.data ?? null, error: result.error ? errorMessage(result.error) : null, retry };
}

// ---- Files ----

/** A file field in the form: attachments of the record that stay, and files chosen now. */
export interface FileSelection { kept: AttachmentSummary[]; added: File[] }

const attachmentPath = (definition: ResourceDefinition, id: number, attachment: AttachmentSummary) =>
  `${recordPath(definition, id)}/attachments/${encodeURIComponent(String(attachment.id))}`;

/** GET /api/{name}/{id}/attachments/{attachmentId} with the bearer token, saved under its name. */
export async function downloadAttachment(definition: ResourceDefinition, id: number, attachment: AttachmentSummary): Promise<void> {
  const blob = await api.get<Blob>(attachmentPath(definition, id, attachment), { responseType: 'blob' });
  saveBlob(blob, attachment.name);
}

/** The same file with `?disposition=inline` (images and PDFs), for a preview; errors are the caller's to show. */
export function fetchAttachmentPreview(definition: ResourceDefinition, id: number, attachment: AttachmentSummary): Promise<Blob> {
  return api.get<Blob>(attachmentPath(definition, id, attachment), { params: { disposition: 'inline' }, responseType: 'blob', silent: true });
}

/**
 * A multipart body with spec §7's bracketed keys, for uploads beside the generic forms (a time sheet,
 * a returned copy, the public CV form): values as `{name}[field]`, files as `{name}[field][]`, `name`
 * being the resource's; the server reads them with `bracketedKey` as it reads the generic forms'.
 * Values left out (null, undefined) are not sent.
 */
export function bracketedFormData(name: string, values: Record<string, unknown>, files: Record<string, File[]> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) if (value !== null && value !== undefined) form.append(`${name}[${key}]`, String(value));
  for (const [key, list] of Object.entries(files)) for (const file of list) form.append(`${name}[${key}][]`, file, file.name);
  return form;
}

/**
 * The multipart body of a create / update (spec §7 bracketed keys): values as `{name}[field]` (arrays as
 * `{name}[field][]`, booleans 1 / 0, null as an empty value), new files as `{name}[field][]`, and on an
 * update the ids to keep as `{name}[field][]` text parts — an explicit empty part when none stay.
 */
export function buildMultipart(definition: ResourceDefinition, payload: Record<string, unknown>, files: Record<string, FileSelection>, isUpdate: boolean): FormData {
  const form = new FormData();
  const name = definition.name;
  const text = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  for (const [key, value] of Object.entries(payload)) {
    if (Array.isArray(value)) for (const item of value) form.append(`${name}[${key}][]`, text(item));
    else form.append(`${name}[${key}]`, text(value));
  }
  for (const [key, selection] of Object.entries(files)) {
    if (isUpdate) {
      if (selection.kept.length) for (const file of selection.kept) form.append(`${name}[${key}][]`, String(file.id));
      else form.append(`${name}[${key}][]`, '');
    }
    for (const file of selection.added) form.append(`${name}[${key}][]`, file, file.name);
  }
  return form;
}

/** Whether the files of a form need multipart: a new file anywhere, or (update) an attachment removed. */
export function needsMultipart(files: Record<string, FileSelection>, row: Row | null): boolean {
  return Object.entries(files).some(([key, selection]) => selection.added.length > 0
    || (!!row && Array.isArray(row[key]) && (row[key] as unknown[]).length !== selection.kept.length));
}

/** Create / update with files: multipart through the progress-reporting upload (POST, or PUT for an update). */
export async function saveRecordWithFiles(
  definition: ResourceDefinition, payload: Record<string, unknown>, files: Record<string, FileSelection>, id: number | string | null | undefined,
  onProgress: (fraction: number) => void,
): Promise<SaveAnswer> {
  const body = buildMultipart(definition, payload, files, !!id);
  const answer = await uploadWithProgress<SaveAnswer>(id ? recordPath(definition, id) : resourceBase(definition), body, onProgress, { method: id ? 'PUT' : 'POST', form: true });
  if (answer.message) notify.success(answer.message);
  invalidateAfterWrite(definition.name, answer?.data?.id ?? id);
  return answer;
}

/**
 * Saves a form: multipart with progress when a file was added or removed, else JSON. `multipartPayload`
 * replaces the payload in the multipart body (a pre-billing's lines travel there as one JSON part).
 * Issue 26: a self-service record (lib/outbox-actions) is sent through the outbox's `sendOrQueue`, so
 * offline it waits there; a row opened from the outbox (`QUEUED_ITEM`) changes its queued item.
 */
export function saveForm(
  definition: ResourceDefinition, payload: Record<string, unknown>, files: Record<string, FileSelection>, row: Row | null,
  onProgress: (fraction: number) => void, multipartPayload: Record<string, unknown> = payload,
): Promise<SaveAnswer> {
  if (isQueuedSave(definition.name) || queuedItemOf(row)) return saveOrQueue(definition, payload, files, row, onProgress, multipartPayload);
  return needsMultipart(files, row)
    ? saveRecordWithFiles(definition, multipartPayload, files, row?.id, onProgress)
    : saveRecord(definition, payload, row?.id);
}

// ---- The outbox (issue 26) ----

/** On a row opened from the outbox: the queued item it stands for, and the files it holds. */
export const QUEUED_ITEM = '$outbox';
export interface QueuedRowMark {
  id: string;
  files: Record<string, File[]>;
  /** A refused item: the server's message and field errors, shown on the form that fixes it. */
  message?: string | null;
  errors?: FieldErrors;
}
export const queuedItemOf = (row: Row | null | undefined): QueuedRowMark | null => (row?.[QUEUED_ITEM] as QueuedRowMark | undefined) ?? null;

/** Said when something is kept on the device instead of sent. */
export const QUEUED_MESSAGE = 'Saved on this device: it will be sent, in order, as soon as the connection allows.';

/** The answer a form gets for a queued save: the values as typed, marked with the queued item. */
const queuedAnswer = (payload: Record<string, unknown>, id: number | string | null | undefined, itemId: string): SaveAnswer =>
  ({ data: { ...payload, id: (id ?? 0) as number, [QUEUED_ITEM]: { id: itemId, files: {} } }, message: QUEUED_MESSAGE });

/** A refusal to keep the item (no room on the device), shaped as a 422 naming no field: the form shows it above its fields. */
export const formRefusal = (error: OutboxFullError) => new ApiError(error.message, 422, { outbox: [error.message] });

async function saveOrQueue(
  definition: ResourceDefinition, payload: Record<string, unknown>, files: Record<string, FileSelection>, row: Row | null,
  onProgress: (fraction: number) => void, multipartPayload: Record<string, unknown>,
): Promise<SaveAnswer> {
  const queued = queuedItemOf(row);
  const id = row?.id || null;
  const isMultipart = needsMultipart(files, row);
  const url = id ? recordPath(definition, id) : resourceBase(definition);
  const method = id ? 'PUT' : 'POST';
  const formData = isMultipart ? buildMultipart(definition, multipartPayload, files, !!id) : undefined;
  const label = queuedSaveWords(definition, payload, !!id);
  try {
    if (queued) {
      await resubmitOutboxItem(queued.id, formData ? { formData, label, preview: payload } : { body: payload, label, preview: payload });
      notify.info('The queued change is updated; it will be sent when you are back online.');
      return queuedAnswer(payload, id, queued.id);
    }
    const editPath = (id ? resourcePath(definition, 'edit', { id }) : resourcePath(definition, 'create')) ?? undefined;
    const input: MutationInput = {
      method, url, label, resource: definition.name, recordId: id, preview: payload, editPath,
      ...(formData ? { formData } : { body: payload }),
    };
    const result = await sendOrQueue(input, (headers) => (formData
      ? uploadWithProgress<SaveAnswer>(url, formData, onProgress, { method, form: true, headers })
      : api[id ? 'put' : 'post']<SaveAnswer>(url, payload, { form: true, headers })));
    if (result.queued) {
      notify.info(QUEUED_MESSAGE);
      return queuedAnswer(payload, id, result.queued.id);
    }
    const { answer } = result;
    if (answer.message) notify.success(answer.message);
    invalidateAfterWrite(definition.name, answer?.data?.id ?? id);
    return answer;
  } catch (error) {
    if (error instanceof OutboxFullError) throw formRefusal(error);
    throw error;
  }
}
