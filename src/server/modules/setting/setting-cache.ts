// The settings a signed-in request reads (the announcement that /me and the login answer carry), held
// on each node (issue 27, decision 053) so that `/me` needs no statement at all.
//
// Kept true as the session cache is (decision 026), on the same channel: the transaction that saves a
// setting NOTIFYs `session_changed` with `setting:<key>`, which PostgreSQL delivers to every listening
// node when it commits (to the committing connection before its COMMIT answers, so this node's next
// request already reads the new value), and PGlite in process. While the listener is not connected the
// copies are bypassed, and they start empty when it comes back. A change that sends no notice (an
// UPDATE by hand) is read again after MAX_AGE_MS at the latest; a restore goes into a new database
// that the nodes are started on, with nothing held.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { NoticedCache } from '../../lib/noticed-cache';
import { SESSION_CHANGED } from '../auth/session-cache';

/** A `session_changed` payload that names a setting rather than a session. */
export const SETTING_NOTICE_PREFIX = 'setting:';
/** The safety net for changes made behind the app's back; every save through the app is announced. */
const MAX_AGE_MS = 60_000;

/** Tells every node, when the writing transaction commits, that this setting changed. */
export async function announceSettingChanged(db: Db, key: string): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSION_CHANGED}, ${SETTING_NOTICE_PREFIX + key})`);
}

export class SettingCache extends NoticedCache {
  private readonly values = new Map<string, { value: unknown; storedAt: number }>();

  /** A notice: this setting changed, or (null) some notices may have been missed. */
  changed(key: string | null) {
    if (key === null) { this.clear(); return; }
    this.generation++;
    this.values.delete(key);
  }

  /**
   * The setting as this node holds it, or else the promise of reading it through `load`, kept for the
   * next requests unless a notice arrived meanwhile. A value held is returned as it is (no promise).
   */
  read<T>(key: string, load: () => Promise<T>, now = Date.now()): T | Promise<T> {
    const held = this.held(key, now);
    if (held) return held.value as T;
    const stamp = this.stamp();
    return load().then((value) => {
      if (this.mayStore(stamp)) {
        // Shared by every request until it changes: nothing may edit it in place.
        this.values.set(key, { value: Object.freeze(value), storedAt: Date.now() });
      }
      return value;
    });
  }

  /** Whether this node holds the setting now (a request would read nothing). */
  has(key: string) { return this.held(key, Date.now()) !== undefined; }

  private held(key: string, now: number) {
    const held = this.isListening ? this.values.get(key) : undefined;
    return held && now - held.storedAt <= MAX_AGE_MS ? held : undefined;
  }

  protected forgetAll() {
    this.values.clear();
  }
}
