// The outbox as the UI sees it (issue 5): one summary per queued mutation, without bodies or files
// (those stay in IndexedDB, lib/outbox.ts). Kept in the order the mutations will be sent.
import { proxy } from 'valtio';
import type { AccountType } from '../../shared/routes';
import type { FieldErrors } from '../lib/api';

export type OutboxMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** pending: waits to be sent (again); failed: the server refused it (422 or another 4xx): the user fixes, retries or discards. */
export type OutboxStatus = 'pending' | 'failed';

export interface OutboxSummary {
  id: string;
  /** What the user did, in their words: "Time sheet for March 2025". */
  label: string;
  method: OutboxMethod;
  /** Path under /api, as given to lib/api.ts. */
  url: string;
  account: AccountType;
  /** The user who queued it: it is only ever sent with that user's token. */
  userId: number | string | null;
  createdAt: string;
  attempts: number;
  status: OutboxStatus;
  /** Epoch ms before which a retry waits (backoff); null: at the next flush. */
  nextAttemptAt: number | null;
  /** The last failure, for the list. */
  message: string | null;
  fieldErrors: FieldErrors;
  /** A client route where the feature can reopen the form for this item (?outbox=<id>). */
  editPath: string | null;
  /** Issue 26: what it weighs on the device (body and files), in bytes. */
  size: number;
  /** The resource it changes (its definition's name), for its list and record page; null when none is named. */
  resource: string | null;
  /** The record it changes (an edit, a withdrawal, a status move); null for a new record. */
  recordId: string | null;
  /** The values to show where the sent record would be listed (a new record's fields, as typed). */
  preview: Record<string, unknown> | null;
  /**
   * Issue 26: a step with no form of its own (a status move, a comment, a returned copy): it is opened,
   * corrected and sent again where it is listed (`editPath`, the page it was made on), not in a form route.
   */
  isFixedHere?: boolean;
}

export const outbox = proxy({
  items: [] as OutboxSummary[],
  /** An account type whose session ended (401) while items were queued: they wait for the next login. */
  paused: { app: false, partner: false } as Record<AccountType, boolean>,
  isFlushing: false,
  /** navigator.storage.persist(): null until asked. */
  isPersisted: null as boolean | null,
});

export function upsertSummary(summary: OutboxSummary) {
  const index = outbox.items.findIndex((item) => item.id === summary.id);
  if (index >= 0) outbox.items[index] = summary;
  else outbox.items.push(summary);
}

/** The items waiting for one resource (and, given, one record), in the order they will be sent. */
export function itemsFor<T extends Pick<OutboxSummary, 'resource' | 'recordId'>>(items: readonly T[], resource: string, recordId?: string | number | null): T[] {
  return items.filter((item) => item.resource === resource && (recordId === undefined || item.recordId === (recordId === null ? null : String(recordId))));
}

export function removeSummary(id: string) {
  const index = outbox.items.findIndex((item) => item.id === id);
  if (index >= 0) outbox.items.splice(index, 1);
}

/** The items one user sees: theirs, of their account type. */
export function itemsOf<T extends Pick<OutboxSummary, 'account' | 'userId'>>(items: readonly T[], account: AccountType, userId: number | string | null | undefined): T[] {
  return items.filter((item) => item.account === account && (item.userId === null || item.userId === (userId ?? null)));
}
