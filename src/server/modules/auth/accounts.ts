// Both account types behind one small interface: find, serialise, permissions, tokens.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type AccountType, modelHasRoles, partnerAccounts, partners, permissions, personalAccessTokens, roleHasPermissions, roles, users,
} from '../../db/schema/accounts';
import { settings } from '../../db/schema/settings';
import type { AuthUser, PermissionSet } from '../../../shared/schemas/auth';
import { preparedAnswer } from '../../plugins/responses';
import { announceRevokedTokens } from './sessions';

export type UserRow = typeof users.$inferSelect;
export type PartnerRow = typeof partnerAccounts.$inferSelect;
export type AccountRow = UserRow | PartnerRow;

export const TOKEN_LIFETIME_DAYS = 30;

export function accountTable(type: AccountType) {
  return type === 'app' ? users : partnerAccounts;
}

/**
 * A partner login stands for its firm: while the firm is inactive the login reads as inactive, so it
 * can neither sign in, nor be mailed a reset link, nor use a token (issue 11), whatever its own status.
 */
const withFirmStatus = (account: PartnerRow, firmStatus: string | null): PartnerRow =>
  (firmStatus === 'active' ? account : { ...account, status: 'inactive' });

export async function findAccountByEmail(db: Db, type: AccountType, email: string): Promise<AccountRow | undefined> {
  if (type === 'partner') {
    const [found] = await db.select({ account: partnerAccounts, firmStatus: partners.status }).from(partnerAccounts)
      .innerJoin(partners, eq(partners.id, partnerAccounts.partner_id))
      .where(sql`lower(${partnerAccounts.email}) = ${email.toLowerCase()}`).limit(1);
    return found && withFirmStatus(found.account, found.firmStatus);
  }
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return row;
}

export async function findAccountById(db: Db, type: AccountType, id: number): Promise<AccountRow | undefined> {
  const table = accountTable(type);
  const [row] = await db.select().from(table).where(eq(table.id, id)).limit(1);
  return row;
}

export async function updateAccount(db: Db, type: AccountType, id: number, values: Partial<UserRow & PartnerRow>): Promise<AccountRow> {
  const table = accountTable(type);
  const [row] = await db.update(table).set({ ...values, updated_at: new Date() } as never).where(eq(table.id, id)).returning();
  return row as AccountRow;
}

/**
 * spec §3 "Authenticated user"; is_enable_2fa is derived from two_fa_enabled_at. two_fa_required (issue 29):
 * a role asks for a second factor, so the client knows the account is pending until it is set up.
 */
export function toAuthUser(type: AccountType, row: AccountRow, twoFactorRequired: boolean): AuthUser {
  const isUser = type === 'app';
  const user = row as UserRow;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    user_type: isUser ? user.user_type : 'partner',
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    doc_assigned: isUser ? user.doc_assigned : false,
    status: row.status,
    two_fa_enabled_at: row.two_fa_enabled_at?.toISOString() ?? null,
    is_enable_2fa: row.two_fa_enabled_at !== null,
    force_password_reset: row.force_password_reset,
    two_fa_required: twoFactorRequired,
    phone: row.phone,
    parent_id: isUser ? user.parent_id : null,
  };
}

/** Roles and permissions, and whether one of the roles asks for a second factor (issue 29). */
export interface AccountPermissions extends PermissionSet {
  twoFactorRequired: boolean;
  /** The roles and permissions as the routes answer them: frozen, its JSON written once (issue 27). */
  permissionSet: Readonly<PermissionSet>;
}

/** Roles and permissions of an account, read from the database (requests go through cachedPermissions). */
export async function loadPermissions(db: Db, type: AccountType, id: number): Promise<AccountPermissions> {
  const rows = await db
    .select({ role: roles.name, permission: permissions.name, requiresTwoFa: roles.requires_two_fa })
    .from(modelHasRoles)
    .innerJoin(roles, eq(roles.id, modelHasRoles.role_id))
    .leftJoin(roleHasPermissions, eq(roleHasPermissions.role_id, roles.id))
    .leftJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(and(eq(modelHasRoles.account_type, type), eq(modelHasRoles.account_id, id)));
  const roleSet = new Set<string>();
  const permissionSet = new Set<string>();
  let twoFactorRequired = false;
  for (const row of rows) {
    roleSet.add(row.role);
    if (row.permission) permissionSet.add(row.permission);
    if (row.requiresTwoFa) twoFactorRequired = true;
  }
  const [roleList, permissionList] = [[...roleSet].sort(), [...permissionSet].sort()];
  // The answer has copies of its own: preparing freezes them, the caller's lists stay its to change.
  const answer = preparedAnswer({ roles: [...roleList], permissions: [...permissionList] });
  return { roles: roleList, permissions: permissionList, twoFactorRequired, permissionSet: answer };
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A new random bearer token; only its hash is stored. */
export async function issueToken(db: Db, type: AccountType, accountId: number): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  const [row] = await db.insert(personalAccessTokens).values({
    account_type: type,
    account_id: accountId,
    token_hash: sha256(secret),
    expires_at: new Date(Date.now() + TOKEN_LIFETIME_DAYS * 86_400_000),
  }).returning({ id: personalAccessTokens.id });
  return `${row.id}|${secret}`;
}

/** What a bearer value stands for: its live token, the token's account, and the permissions stamp. */
export interface Bearer {
  tokenId: number;
  type: AccountType;
  /** Undefined when the account no longer exists. */
  account: AccountRow | undefined;
  /** The settings row 'permissions_version' (migration 0005); null only if that row is missing. */
  permissionsVersion: string | null;
  /** When the token expires, or null for never. */
  expiresAt: Date | null;
}

/**
 * The token JOIN its account (users or partner_accounts, by the token's type; a partner login with its
 * firm's status) and the permissions stamp, in one round trip and as a prepared statement (planned
 * once per connection). Run on every request, so a revoked or expired token and a deactivated
 * account or partner firm are refused at once.
 */
function bearerQuery(db: Db) {
  const t = personalAccessTokens;
  return db.select({
    token: { id: t.id, account_type: t.account_type, expires_at: t.expires_at },
    user: users,
    partner: partnerAccounts,
    firmStatus: partners.status,
    version: sql<string | null>`(select ${settings.value} #>> '{}' from ${settings} where ${settings.key} = 'permissions_version')`,
  }).from(t)
    .leftJoin(users, and(eq(t.account_type, 'app'), eq(users.id, t.account_id)))
    .leftJoin(partnerAccounts, and(eq(t.account_type, 'partner'), eq(partnerAccounts.id, t.account_id)))
    .leftJoin(partners, eq(partners.id, partnerAccounts.partner_id))
    .where(and(eq(t.token_hash, sql.placeholder('hash')), or(isNull(t.expires_at), gt(t.expires_at, sql`now()`))))
    .limit(1)
    .prepare('auth_bearer');
}
const bearerQueries = new WeakMap<Db, ReturnType<typeof bearerQuery>>();

/** The stored hash of a bearer value (`<id>|<secret>`), or undefined when it cannot be one of ours. */
export function bearerHash(bearer: string): string | undefined {
  const secret = bearer.includes('|') ? bearer.slice(bearer.indexOf('|') + 1) : bearer;
  if (!secret || secret.length > 200) return undefined;
  return sha256(secret);
}

export async function findBearer(db: Db, tokenHash: string): Promise<Bearer | undefined> {
  let query = bearerQueries.get(db);
  if (!query) bearerQueries.set(db, query = bearerQuery(db));
  const [row] = await query.execute({ hash: tokenHash });
  if (!row) return undefined;
  const type = row.token.account_type;
  const account = type === 'app' ? row.user : row.partner && withFirmStatus(row.partner, row.firmStatus);
  return { tokenId: row.token.id, type, account: account ?? undefined, permissionsVersion: row.version, expiresAt: row.token.expires_at };
}

/**
 * Roles and permissions per account, cached in this process under the permissions stamp read with
 * the token. Every change to roles, permissions or role membership replaces the stamp in the same
 * transaction (database triggers, migration 0005), so a request that sees the new stamp reloads:
 * a change applies to the very next request on every node, with no stale window. A load always
 * runs after the stamp was read, so what it stores is at least as new as the stamp it is filed under.
 */
const permissionCaches = new WeakMap<Db, Map<string, { version: string; set: AccountPermissions }>>();
const PERMISSION_CACHE_SIZE = 10_000;

export async function cachedPermissions(db: Db, type: AccountType, id: number, version: string | null): Promise<AccountPermissions> {
  if (version === null) return loadPermissions(db, type, id);
  let cache = permissionCaches.get(db);
  if (!cache) permissionCaches.set(db, cache = new Map());
  const key = `${type}:${id}`;
  const hit = cache.get(key);
  if (hit?.version === version) return hit.set;
  const set = await loadPermissions(db, type, id);
  // Shared by every request of the account until the stamp changes: frozen, so nobody edits it in place.
  Object.freeze(set.roles);
  Object.freeze(set.permissions);
  // Bounded: past the limit the oldest entry goes (a Map iterates in insertion order).
  if (cache.size >= PERMISSION_CACHE_SIZE && !cache.has(key)) cache.delete(cache.keys().next().value!);
  cache.set(key, { version, set });
  return set;
}

/** Revokes one token (logout); its sockets close on every node once this commits. */
export async function revokeToken(db: Db, tokenId: number) {
  const gone = await db.delete(personalAccessTokens).where(eq(personalAccessTokens.id, tokenId)).returning({ id: personalAccessTokens.id });
  await announceRevokedTokens(db, gone.map((row) => row.id));
}

/**
 * Revokes every token of an account (password reset, deactivation), or every one but `except`
 * (a password change keeps the session that made it). Their sockets close on every node once this commits.
 */
export async function revokeAllTokens(db: Db, type: AccountType, accountId: number, options: { except?: number } = {}) {
  const t = personalAccessTokens;
  const gone = await db.delete(t)
    .where(and(eq(t.account_type, type), eq(t.account_id, accountId), options.except === undefined ? undefined : ne(t.id, options.except)))
    .returning({ id: t.id });
  await announceRevokedTokens(db, gone.map((row) => row.id));
}

/** Revokes every token of every login of a partner firm (the firm deactivated or deleted). */
export async function revokePartnerTokens(db: Db, partnerId: number) {
  const t = personalAccessTokens;
  const logins = db.select({ id: partnerAccounts.id }).from(partnerAccounts).where(eq(partnerAccounts.partner_id, partnerId));
  const gone = await db.delete(t).where(and(eq(t.account_type, 'partner'), inArray(t.account_id, logins))).returning({ id: t.id });
  await announceRevokedTokens(db, gone.map((row) => row.id));
}
