// Both account types behind one small interface: find, serialise, permissions, tokens.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type AccountType, modelHasRoles, partners, permissions, personalAccessTokens, roleHasPermissions, roles, users,
} from '../../db/schema/accounts';
import type { AuthUser, PermissionSet } from '../../../shared/schemas/auth';

export type UserRow = typeof users.$inferSelect;
export type PartnerRow = typeof partners.$inferSelect;
export type AccountRow = UserRow | PartnerRow;

export const TOKEN_LIFETIME_DAYS = 30;

export function accountTable(type: AccountType) {
  return type === 'app' ? users : partners;
}

export async function findAccountByEmail(db: Db, type: AccountType, email: string): Promise<AccountRow | undefined> {
  const table = accountTable(type);
  const [row] = await db.select().from(table).where(sql`lower(${table.email}) = ${email.toLowerCase()}`).limit(1);
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

/** spec §3 "Authenticated user"; is_enable_2fa is derived from two_fa_enabled_at. */
export function toAuthUser(type: AccountType, row: AccountRow): AuthUser {
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
    phone: row.phone,
    parent_id: isUser ? user.parent_id : null,
  };
}

/** Roles and permissions read fresh on every request, so a role change applies to the next call. */
export async function loadPermissions(db: Db, type: AccountType, id: number): Promise<PermissionSet> {
  const rows = await db
    .select({ role: roles.name, permission: permissions.name })
    .from(modelHasRoles)
    .innerJoin(roles, eq(roles.id, modelHasRoles.role_id))
    .leftJoin(roleHasPermissions, eq(roleHasPermissions.role_id, roles.id))
    .leftJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(and(eq(modelHasRoles.account_type, type), eq(modelHasRoles.account_id, id)));
  const roleSet = new Set<string>();
  const permissionSet = new Set<string>();
  for (const row of rows) {
    roleSet.add(row.role);
    if (row.permission) permissionSet.add(row.permission);
  }
  return { roles: [...roleSet].sort(), permissions: [...permissionSet].sort() };
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

/** The live token row for a bearer value, whatever its account type (the caller checks the audience). */
export async function findToken(db: Db, bearer: string) {
  const secret = bearer.includes('|') ? bearer.slice(bearer.indexOf('|') + 1) : bearer;
  if (!secret || secret.length > 200) return undefined;
  const [row] = await db.select().from(personalAccessTokens).where(and(
    eq(personalAccessTokens.token_hash, sha256(secret)),
    or(isNull(personalAccessTokens.expires_at), gt(personalAccessTokens.expires_at, new Date())),
  )).limit(1);
  return row;
}

export async function revokeToken(db: Db, tokenId: number) {
  await db.delete(personalAccessTokens).where(eq(personalAccessTokens.id, tokenId));
}

/** Revokes every token of an account (password reset, deactivation). */
export async function revokeAllTokens(db: Db, type: AccountType, accountId: number) {
  await db.delete(personalAccessTokens).where(and(eq(personalAccessTokens.account_type, type), eq(personalAccessTokens.account_id, accountId)));
}
