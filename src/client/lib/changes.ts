// What changed on the server, told to whoever holds server state (docs/decisions/012-one-query-cache.md).
// A module with no dependencies, so code that runs before sign-in (the outbox) can announce a change
// without pulling the query library into the login route's JavaScript: the query cache (lib/query.ts),
// loaded with the authenticated layout, listens here and invalidates what the change touched.

export interface Change {
  /** The resource's name (its definition's `name`: 'pre-billing', 'bgv-check-component'). */
  resource: string;
  /** The record, when one is named; none for a create or a change to many rows. */
  id?: string | number | null;
  /**
   * 'write': this client changed it (a save, a transition, a queued change delivered): the record, its
   * lists, its summaries and the figures that count it are stale. 'live': a live event named it: only
   * the resource's lists and the record are fetched again.
   */
  origin: 'write' | 'live';
}

type Listener = (change: Change) => void;
const listeners = new Set<Listener>();

export function announceChange(change: Change): void {
  for (const listener of listeners) listener(change);
}

/** Returns the function that stops listening. */
export function onChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/**
 * The resource and record a page url names ('/api/…' or a screen path): `/pre-billing/12` ->
 * pre-billing 12, `/ikk-partner/pre-billing/12` -> the same. Outbox items and live notifications carry
 * urls, not resource names. `resolve` maps a path to a resource (the route table, given by the caller
 * so this module stays free of imports); by default the first segment is the resource.
 */
export function changeFromUrl(url: string, origin: Change['origin'], resolve?: (path: string) => Omit<Change, 'origin'> | null): Change | null {
  let path: string;
  try { path = new URL(url, 'http://local').pathname; } catch { return null; }
  path = path.replace(/^\/api(?=\/)/, '');
  const resolved = resolve?.(path);
  if (resolved) return { ...resolved, origin };
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'partner') parts.shift();
  if (!parts.length) return null;
  const id = parts[1] && /^\d+$/.test(parts[1]) ? parts[1] : null;
  return { resource: parts[0], id, origin };
}
