// The cached session (issue 27): what a bearer token stands for (its account and the account's roles
// and permissions), kept per node so an authenticated request needs no database round trip.
//
// Correctness rests on the database telling every node what changed: triggers (migration
// 0027_session_cache) NOTIFY `session_changed` with `token:<id>`, `app:<id>`, `partner:<id>`,
// `firm:<id>` or `*` (permissions changed) whenever a token is deleted, an account or partner firm is
// updated or deleted, or roles and permissions change. PostgreSQL delivers a notice to every
// listening node when the writing transaction commits, so a logout, a password change, a
// deactivation or a role change reaches every node's cache at once. While a node's listener is not
// connected the cache is bypassed (notices sent meanwhile are lost), and it starts empty when the
// listener comes back. The channel also carries `setting:<key>` from the code that saves a setting
// held per node (modules/setting/setting-cache.ts, decision 053); those notices go there, not here.
import type { PermissionSet } from '../../../shared/schemas/auth';
import type { AccountType } from '../../db/schema/accounts';
import type { AccountRow } from './accounts';
import { NoticedCache } from '../../lib/noticed-cache';

export const SESSION_CHANGED = 'session_changed';

export interface CachedSession extends PermissionSet {
  /** The roles and permissions as the routes answer them, shared by the account's sessions (accounts.ts). */
  permissionSet: Readonly<PermissionSet>;
  tokenId: number;
  type: AccountType;
  user: AccountRow;
  /** The token's expiry (ms since the epoch), or null when it never expires. */
  expiresAt: number | null;
  /** One of the account's roles asks for a second factor (issue 29). */
  twoFactorRequired: boolean;
}

interface Entry { session: CachedSession; keys: string[]; storedAt: number }

/** Bounded: past the limit the oldest entry goes (a Map iterates in insertion order). */
const MAX_ENTRIES = 10_000;
/** A safety net only: every change that matters is announced; an entry is re-read after this anyway. */
const MAX_AGE_MS = 60_000;

export class SessionCache extends NoticedCache {
  private readonly entries = new Map<string, Entry>();
  /** Which entries each announced key touches, so a notice drops them without a scan. */
  private readonly byKey = new Map<string, Set<string>>();

  /** A notice from the database: `*` (or null, when some may have been missed) drops everything. */
  changed(key: string | null) {
    if (key === null || key === '*') { this.clear(); return; }
    this.generation++;
    for (const tokenHash of this.byKey.get(key) ?? []) this.drop(tokenHash);
  }

  /** The session of this token hash, when cached, fresh and unexpired. */
  get(tokenHash: string, now = Date.now()): CachedSession | undefined {
    if (!this.isListening) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.storedAt > MAX_AGE_MS || (entry.session.expiresAt !== null && entry.session.expiresAt <= now)) {
      this.drop(tokenHash);
      return undefined;
    }
    return entry.session;
  }

  /** Stores what was read since `stamp()`, unless a notice arrived in between (it may be stale). */
  set(tokenHash: string, session: CachedSession, stamp: number, firmId: number | null) {
    if (!this.mayStore(stamp)) return;
    this.drop(tokenHash);
    if (this.entries.size >= MAX_ENTRIES) this.drop(this.entries.keys().next().value!);
    const keys = [`token:${session.tokenId}`, `${session.type}:${session.user.id}`];
    if (firmId !== null) keys.push(`firm:${firmId}`);
    // Shared by every request of the session until it changes: nothing may edit them in place.
    Object.freeze(session.roles);
    Object.freeze(session.permissions);
    this.entries.set(tokenHash, { session, keys, storedAt: Date.now() });
    for (const key of keys) {
      let hashes = this.byKey.get(key);
      if (!hashes) this.byKey.set(key, hashes = new Set());
      hashes.add(tokenHash);
    }
  }

  get size() { return this.entries.size; }

  protected forgetAll() {
    this.entries.clear();
    this.byKey.clear();
  }

  private drop(tokenHash: string) {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    for (const key of entry.keys) {
      const hashes = this.byKey.get(key);
      hashes?.delete(tokenHash);
      if (hashes?.size === 0) this.byKey.delete(key);
    }
  }
}
