// Calls of the generic resource routes (docs/resources.md), through the one API wrapper.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { AttachmentSummary, HistoryEntry, ResourceDefinition } from '../../../shared/resources/define';
import { saveBlob } from '../../lib/download';
import { api, isApiError } from '../../lib/api';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import { pwa } from '../../stores/pwa';
import { ui } from '../../stores/ui';
import type { ChoiceOption } from '../../ui/combobox';
import type { ListQuery, Row } from './use-resource-query';
import { listQueryToParams, useRefetchOnReconnect } from './use-resource-query';
import { currentArea, resourceBase } from './resource-values';
import { resourceByName } from '../../../shared/resources/registry';
import { today } from '../../../shared/dates';
import type { AuditEntryView } from '../../../shared/schemas/audit';

export interface SaveAnswer { data: Row; message?: string }

/**
 * GET /api/{name}/{id}; `error` holds the server's message (404: "City not found."). `isLive`: refetch
 * when records change elsewhere (a live decision on an open detail page); forms leave it off so a
 * change never swaps the values under someone typing. `isUnreachable`: no answer came back (offline,
 * and the service worker holds no copy of this record), which says nothing of whether it exists; it
 * is fetched again when the connection returns (issue 14).
 */
export function useResourceRecord(definition: ResourceDefinition, id: string | number | null | undefined, { isLive = false } = {}) {
  const [row, setRow] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isUnreachable, setUnreachable] = useState(false);
  const [version, setVersion] = useState(0);
  const { dataVersion } = useSnapshot(ui);
  const liveVersion = isLive ? dataVersion : 0;
  const shown = useRef<string | null>(null);
  const base = resourceBase(definition);
  useEffect(() => {
    if (id === null || id === undefined || id === '') return;
    let active = true;
    // A reload of the same record keeps it on screen (after a transition); another record starts blank.
    const identity = `${definition.name}/${String(id)}`;
    if (shown.current !== identity) setRow(null);
    shown.current = identity;
    setError(null);
    setUnreachable(false);
    api.get<{ data: Row }>(`${base}/${encodeURIComponent(String(id))}`, { silent: true })
      .then((answer) => { if (active) setRow(answer.data); })
      .catch((failure: unknown) => {
        if (!active) return;
        setError(isApiError(failure) ? failure.message : 'An error occurred.');
        setUnreachable(isApiError(failure) && failure.status === null);
      });
    return () => { active = false; };
  }, [definition.name, base, id, version, liveVersion]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefetchOnReconnect(isUnreachable, reload);
  return { row, error, isUnreachable, reload, setRow };
}

/**
 * GET /api/{resource}/options?search=&<params>: at most 50 choices for a searchable select. Offline, a
 * typed search has no cached answer of its own: the unfiltered answer the service worker holds (see
 * useOptionsOffline) is narrowed on the device instead, so a queued form can still be filled in.
 */
export async function loadOptions(resource: string, search: string, params: Record<string, string> = {}): Promise<ChoiceOption[]> {
  const base = resourceByName[resource] ? resourceBase(resourceByName[resource]) : `/${resource}`;
  try {
    const answer = await api.get<{ data: { id: number; label: unknown }[] }>(`${base}/options`, {
      params: { ...params, ...(search ? { search } : {}) }, silent: true,
    });
    return answer.data.map((item) => ({ id: item.id, label: String(item.label ?? `#${item.id}`) }));
  } catch (failure) {
    if (!search || !isApiError(failure) || failure.status !== null) throw failure;
    const term = search.toLowerCase();
    return (await loadOptions(resource, '', params)).filter((option) => option.label.toLowerCase().includes(term));
  }
}

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
  return answer;
}

/** DELETE; a refusal (409, record in use) is toasted by the wrapper with the server's message. */
export async function deleteRecord(definition: ResourceDefinition, id: number | string): Promise<boolean> {
  try {
    const answer = await api.delete<{ message?: string }>(`${resourceBase(definition)}/${encodeURIComponent(String(id))}`);
    notify.success(answer?.message || `${definition.label} deleted successfully.`);
    return true;
  } catch {
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

/**
 * POST /api/{name}/{id}/transitions/{transition}. 422 field errors come back to the dialog (no toast);
 * 403 / 409 / 404 are toasted by the wrapper with the server's message.
 */
export function runTransition(definition: ResourceDefinition, id: number, transition: string, comment: string): Promise<TransitionAnswer> {
  return api.post<TransitionAnswer>(`${recordPath(definition, id)}/transitions/${encodeURIComponent(transition)}`, commentBody(comment), { form: true });
}

/** POST /api/{name}/transitions/{transition} `{ids, comment?}`: one result per id. */
export async function runBulkTransition(definition: ResourceDefinition, ids: number[], transition: string, comment: string): Promise<BulkResult[]> {
  const answer = await api.post<{ data: BulkResult[] }>(`${resourceBase(definition)}/transitions/${encodeURIComponent(transition)}`, { ids, ...commentBody(comment) }, { form: true });
  return Array.isArray(answer?.data) ? answer.data : [];
}

/** GET /api/{name}/{id}/history, oldest first; `reloadKey` refetches it (after a transition). */
export function useHistory(definition: ResourceDefinition, id: number | null, reloadKey: unknown) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (id === null || !definition.workflow) return;
    let active = true;
    setError(null);
    api.get<{ data: HistoryEntry[] }>(`${recordPath(definition, id)}/history`, { silent: true })
      .then((answer) => { if (active) setEntries(Array.isArray(answer.data) ? answer.data : []); })
      .catch((failure: unknown) => { if (active) setError(isApiError(failure) ? failure.message : 'An error occurred.'); });
    return () => { active = false; };
  }, [definition, id, reloadKey, version]);
  const retry = useCallback(() => setVersion((v) => v + 1), []);
  return { entries, error, retry };
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
  const [entries, setEntries] = useState<TimelineEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (id === null) return;
    let active = true;
    setError(null);
    const steps = definition.workflow
      ? api.get<{ data: HistoryEntry[] }>(`${recordPath(definition, id)}/history`, { silent: true }).then((answer) => (Array.isArray(answer.data) ? answer.data : []))
      : Promise.resolve([]);
    const edits = currentArea() === 'partner'
      ? Promise.resolve([])
      : api.get<{ data: AuditEntryView[] }>(`${recordPath(definition, id)}/changes`, { silent: true }).then((answer) => (Array.isArray(answer.data) ? answer.data : []));
    Promise.all([steps, edits])
      .then(([stepList, editList]) => {
        if (!active) return;
        const timeline: TimelineEntry[] = [
          ...stepList.map((entry) => ({ kind: 'step' as const, ...entry })),
          ...editList.filter((entry) => !(definition.workflow && entry.action === 'create')).map((entry) => ({ kind: 'edit' as const, ...entry })),
        ];
        // Oldest first; within one moment (one transaction) the step before the edit, as it was written.
        timeline.sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.kind === b.kind ? 0 : a.kind === 'step' ? -1 : 1));
        setEntries(timeline);
      })
      .catch((failure: unknown) => { if (active) setError(isApiError(failure) ? failure.message : 'An error occurred.'); });
    return () => { active = false; };
  }, [definition, id, reloadKey, version]);
  const retry = useCallback(() => setVersion((v) => v + 1), []);
  return { entries, error, retry };
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
  return answer;
}

/**
 * Saves a form: multipart with progress when a file was added or removed, else JSON. `multipartPayload`
 * replaces the payload in the multipart body (a pre-billing's lines travel there as one JSON part).
 */
export function saveForm(
  definition: ResourceDefinition, payload: Record<string, unknown>, files: Record<string, FileSelection>, row: Row | null,
  onProgress: (fraction: number) => void, multipartPayload: Record<string, unknown> = payload,
): Promise<SaveAnswer> {
  return needsMultipart(files, row)
    ? saveRecordWithFiles(definition, multipartPayload, files, row?.id, onProgress)
    : saveRecord(definition, payload, row?.id);
}
