// Issue 26: what waits in the outbox, shown where the sent record would be: at the top of its list,
// and on its record page. Each item says "Waiting to send" (or the server's refusal) and can be
// opened in its form (`?outbox=<id>`, the form then changes the queued item) or discarded.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import type { ResourceDefinition } from '../../../shared/resources/define';
import type { AccountType } from '../../../shared/routes';
import { formatDateTime, inSentence } from '../../lib/format';
import { discardOutboxItem, formatBytes, getOutboxItem, OutboxFullError, resubmitOutboxItem, useOutbox, type OutboxItem } from '../../lib/outbox';
import { itemsFor, type OutboxSummary } from '../../stores/outbox';
import { Badge } from '../badge';
import { Button, focusRing } from '../button';
import { FormAlert } from '../field';
import { TextAreaField } from '../textarea-field';
import { cx } from '../cx';
import { Icon } from '../icons';
import { labelFor, QUEUED_ITEM, type QueuedRowMark } from './resource-api';
import type { Row } from './use-resource-query';

/** The address of an item's form, where it opens to be changed or fixed. */
export const outboxFormPath = (item: Pick<OutboxSummary, 'id' | 'editPath'>) =>
  (item.editPath ? `${item.editPath}${item.editPath.includes('?') ? '&' : '?'}outbox=${encodeURIComponent(item.id)}` : null);

export function QueuedStatus({ item, isPaused = false }: { item: Pick<OutboxSummary, 'status' | 'attempts'>; isPaused?: boolean }) {
  if (item.status === 'failed') return <Badge tone="red">Not sent</Badge>;
  if (isPaused) return <Badge tone="amber">Waiting for sign-in</Badge>;
  return <Badge tone="amber">Waiting to send</Badge>;
}

const smallButton = cx('inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium', focusRing);

/** The server's field errors as the store's snapshot holds them (read only). */
type ShownFieldErrors = Readonly<Record<string, readonly string[]>>;

/** The written parts of a step's JSON body a person may correct: a comment, a request's comment text. */
const TEXT_KEYS = ['comment', 'body'] as const;
const textKeysOf = (body: unknown) => (body && typeof body === 'object' ? TEXT_KEYS.filter((key) => typeof (body as Record<string, unknown>)[key] === 'string') : []);

/**
 * Issue 26: a step with no form of its own (a status move, a comment, a returned copy), opened where it is
 * listed: its comment to correct, its file to replace, then sent again (a refused one under a new key) or
 * discarded. Nothing refused is dropped silently.
 */
function QueuedStepForm({ item, onClose }: { item: Readonly<Pick<OutboxSummary, 'id' | 'label' | 'status' | 'message'>> & { fieldErrors?: ShownFieldErrors }; onClose: () => void }) {
  const [stored, setStored] = useState<OutboxItem | null | undefined>(undefined);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  const fileId = useId();
  useEffect(() => {
    let active = true;
    void getOutboxItem(item.id).then((found) => {
      if (!active) return;
      setStored(found ?? null);
      const body = (found?.body ?? {}) as Record<string, unknown>;
      setTexts(Object.fromEntries(textKeysOf(found?.body).map((key) => [key, String(body[key])])));
    });
    return () => { active = false; };
  }, [item.id]);
  if (stored === undefined) return <p role="status" className="text-sm text-slate-500 dark:text-slate-400">Reading what was kept…</p>;
  if (stored === null) return <p className="text-sm text-slate-600 dark:text-slate-300">This change is no longer waiting: it was sent or discarded.</p>;
  const fileEntry = stored.form?.find((entry) => 'blob' in entry) as { name: string; blob: Blob; filename: string | null } | undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = Object.entries(texts).find(([key, value]) => key === 'body' && !value.trim());
    if (missing) { setError('The comment field is required.'); return; }
    setSending(true);
    setError(null);
    try {
      if (stored.form) {
        const formData = new FormData();
        for (const entry of stored.form) {
          if (!('blob' in entry)) formData.append(entry.name, entry.value);
          else if (file && entry === fileEntry) formData.append(entry.name, file, file.name);
          else if (entry.filename) formData.append(entry.name, entry.blob, entry.filename);
          else formData.append(entry.name, entry.blob);
        }
        await resubmitOutboxItem(item.id, { formData });
      } else {
        await resubmitOutboxItem(item.id, { body: { ...(stored.body as Record<string, unknown> | null ?? {}), ...texts } });
      }
      onClose();
    } catch (failure) {
      setError(failure instanceof OutboxFullError ? failure.message : 'The change could not be kept on this device.');
    } finally {
      setSending(false);
    }
  };
  const fieldErrors = Object.values(item.fieldErrors ?? {}).flat();
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Correct ${item.label}`}
      className="mt-2 space-y-3 rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <FormAlert message={error ?? (fieldErrors.length ? fieldErrors.join(' ') : null)} />
      {Object.entries(texts).map(([key, value]) => (
        <TextAreaField key={key} name={key} label={key === 'body' ? 'Your comment' : 'Comment'} rows={3} value={value}
          onChange={(event) => setTexts((current) => ({ ...current, [key]: event.target.value }))} />
      ))}
      {fileEntry && (
        <div className="space-y-1 text-sm">
          <label htmlFor={fileId} className="font-medium text-slate-800 dark:text-slate-100">Replace the file</label>
          <p className="text-xs text-slate-500 dark:text-slate-400">Kept now: {fileEntry.filename ?? 'the file'} ({formatBytes(fileEntry.blob.size)}).</p>
          <input id={fileId} type="file" onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 dark:text-slate-200 dark:file:bg-slate-800 dark:file:text-slate-100" />
        </div>
      )}
      {!Object.keys(texts).length && !fileEntry && (
        <p className="text-sm text-slate-600 dark:text-slate-300">There is nothing to fill in for this step: send it again once the reason above no longer holds, or discard it.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" isLoading={isSending}>Send again</Button>
        <Button variant="secondary" size="sm" onClick={onClose} disabled={isSending}>Close</Button>
      </div>
    </form>
  );
}

/** One waiting item: what, when, its size and state, the server's message, open and discard. */
export function QueuedItemRow({ item, isPaused }: { item: Readonly<Pick<OutboxSummary, 'id' | 'label' | 'editPath' | 'status' | 'attempts' | 'createdAt' | 'size' | 'message' | 'isFixedHere'>> & { fieldErrors?: ShownFieldErrors }; isPaused?: boolean }) {
  const formPath = item.isFixedHere ? null : outboxFormPath(item);
  // A step corrected in place opens here, also when the outbox menu's "Fix" brought the person (`?outbox=<id>`).
  const asked = new URLSearchParams(useSearch()).get('outbox') === item.id;
  const [isOpen, setOpen] = useState(asked);
  // Asked again later (the menu's Fix while the page is shown): opened then too, during render rather than in an effect.
  const [wasAsked, setWasAsked] = useState(asked);
  if (asked !== wasAsked) {
    setWasAsked(asked);
    if (asked) setOpen(true);
  }
  const action = item.status === 'failed' ? 'Fix' : 'Open';
  return (
    <li className="px-4 py-3" data-testid="queued-item">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium text-slate-900 dark:text-white">{item.label}</p>
            <QueuedStatus item={item} isPaused={isPaused} />
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Made {formatDateTime(item.createdAt)} · {formatBytes(item.size)}{item.attempts > 0 && item.status === 'pending' ? ' · will try again shortly' : ''}
          </p>
          {item.status === 'failed' && item.message && <p className="text-sm text-rose-700 dark:text-rose-300">{item.message}</p>}
        </div>
        <div className="flex shrink-0 gap-1.5">
          {formPath && (
            <Link href={formPath} className={cx(smallButton, 'bg-indigo-600 text-white hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400')}
              aria-label={`${action} ${item.label}`}>
              <Icon name="pencil" className="size-3.5" />{action}
            </Link>
          )}
          {item.isFixedHere && !isOpen && (
            <button type="button" onClick={() => setOpen(true)} aria-label={`${action} ${item.label}`}
              className={cx(smallButton, 'bg-indigo-600 text-white hover:bg-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400')}>
              <Icon name="pencil" className="size-3.5" />{action}
            </button>
          )}
          <button type="button" onClick={() => void discardOutboxItem(item.id)} aria-label={`Discard ${item.label}`}
            className={cx(smallButton, 'text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50 dark:text-rose-300 dark:ring-rose-500/30 dark:hover:bg-rose-500/10')}>
            Discard
          </button>
        </div>
      </div>
      {item.isFixedHere && isOpen && <QueuedStepForm item={item} onClose={() => setOpen(false)} />}
    </li>
  );
}

/** The items waiting for a resource (a list) or one record (its page); nothing when none wait. */
export function QueuedItems({ definition, account, recordId }: { definition: ResourceDefinition; account: AccountType; recordId?: string | number | null }) {
  const { items, isPaused } = useOutbox(account);
  const waiting = itemsFor(items, definition.name, recordId);
  if (!waiting.length) return null;
  const noun = recordId === undefined ? inSentence(definition.pluralLabel) : `this ${inSentence(definition.label)}`;
  return (
    <section aria-label="Waiting to send" className="mb-4 overflow-hidden rounded-xl border border-amber-200 bg-amber-50/60 dark:border-amber-500/30 dark:bg-amber-500/5">
      <p className="flex items-center gap-2 border-b border-amber-200 px-4 py-2.5 text-sm text-amber-900 dark:border-amber-500/30 dark:text-amber-100">
        <Icon name="upload" className="size-4 shrink-0" aria-hidden="true" />
        {waiting.length === 1 ? `1 change to ${noun} is kept on this device` : `${waiting.length} changes to ${noun} are kept on this device`} and sent in order when the connection allows.
      </p>
      <ul className="divide-y divide-amber-200/70 text-sm dark:divide-amber-500/20">
        {waiting.map((item) => <QueuedItemRow key={item.id} item={item} isPaused={isPaused} />)}
      </ul>
    </section>
  );
}

/**
 * The row a form opens for a queued item (`?outbox=<id>`): the record as the server has it (an edit) or
 * nothing (a new one), with the values as queued, the labels of their references (from the options the
 * device keeps) and the queued files. undefined while reading it; null when the item is gone (sent or
 * discarded meanwhile).
 */
export function useQueuedRow(definition: ResourceDefinition, outboxId: string | null, serverRow: Row | null): Row | null | undefined {
  const [found, setFound] = useState<{ id: string; row: Row | null } | null>(null);
  const serverId = serverRow?.id;
  useEffect(() => {
    if (!outboxId) return;
    let active = true;
    void (async () => {
      const item = await getOutboxItem(outboxId);
      if (!item || item.resource !== definition.name) { if (active) setFound({ id: outboxId, row: null }); return; }
      const values = item.preview ?? {};
      const relations: Row = {} as Row;
      for (const [key, field] of Object.entries(definition.fields)) {
        const reference = field.input === 'reference' ? field.reference : undefined;
        const value = values[key];
        if (!reference || value === null || value === undefined || value === '') continue;
        const choice = await labelFor(reference.resource, String(value));
        relations[reference.relation] = { id: choice.id, label: choice.label };
      }
      const files: Record<string, File[]> = {};
      for (const entry of item.form ?? []) {
        if (!('blob' in entry)) continue;
        const key = /\[([^\]]+)\](\[\])?$/.exec(entry.name)?.[1] ?? entry.name;
        (files[key] ??= []).push(new File([entry.blob], entry.filename ?? key, { type: entry.blob.type }));
      }
      const mark: QueuedRowMark = { id: item.id, files, message: item.status === 'failed' ? item.message : null, errors: item.fieldErrors };
      if (active) setFound({ id: outboxId, row: { ...(serverRow ?? {}), ...values, ...relations, [QUEUED_ITEM]: mark } as Row });
    })();
    return () => { active = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per item and record
  }, [outboxId, definition, serverId]);
  if (!outboxId) return null;
  return found?.id === outboxId ? found.row : undefined;
}
