// Capability links (ARCHITECTURE "Capability links"): public pages opened by a link that is itself
// the permission. A route declares `config: { auth: { capability: 'purpose' } }`; the auth hook
// resolves the token of its `:token` param (or `?token=`) into `request.capability` before the
// handler runs. Unknown, tampered, expired and revoked tokens get one and the same 404, so a caller
// learns nothing about which links exist; a used one is 410, which the holder of a real link needs
// to hear ("already used") and a guesser cannot reach.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or, lt, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { capabilityLinks } from '../db/schema/capability';
import { HttpError } from './errors';

export interface CapabilityAuth {
  capability: string;
  /** Also resolves a link whose uses are spent (the page of an attempt already started, its result). */
  allowUsed?: boolean;
}

export interface Capability {
  id: number;
  purpose: string;
  subjectId: number;
  data: Record<string, unknown>;
  uses: number;
  maxUses: number | null;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    capability: Capability | null;
  }
}

export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired.';
export const USED_LINK_MESSAGE = 'This link has already been used.';

const invalidLink = () => new HttpError(404, INVALID_LINK_MESSAGE);
const usedLink = () => new HttpError(410, USED_LINK_MESSAGE);

/** 32 random bytes as base64url: 43 characters, 256 bits. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Makes a link; the token is returned once and only its hash is stored. */
export async function createCapabilityLink(db: Db, input: {
  purpose: string; subjectId: number; expiresAt: Date; maxUses?: number | null; createdBy?: number | null; data?: Record<string, unknown>;
}): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await db.insert(capabilityLinks).values({
    purpose: input.purpose, subject_id: input.subjectId, token_hash: tokenHash(token), expires_at: input.expiresAt,
    max_uses: input.maxUses ?? null, created_by: input.createdBy ?? null, data: input.data ?? {},
  }).returning({ id: capabilityLinks.id });
  return { id: row.id, token };
}

/** Revokes a link of this purpose; false when there was none (or it was revoked already). */
export async function revokeCapabilityLink(db: Db, purpose: string, id: number): Promise<boolean> {
  const rows = await db.update(capabilityLinks).set({ revoked_at: new Date() })
    .where(and(eq(capabilityLinks.id, id), eq(capabilityLinks.purpose, purpose), isNull(capabilityLinks.revoked_at)))
    .returning({ id: capabilityLinks.id });
  return rows.length > 0;
}

/** The link a token opens for this purpose; throws the plain 404 / 410 answers otherwise. */
export async function resolveCapability(db: Db, purpose: string, token: unknown, options: { allowUsed?: boolean } = {}): Promise<Capability> {
  // A malformed token costs no query and answers exactly like an unknown one.
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) throw invalidLink();
  const [row] = await db.select().from(capabilityLinks)
    .where(and(eq(capabilityLinks.token_hash, tokenHash(token)), eq(capabilityLinks.purpose, purpose)));
  if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw invalidLink();
  if (!options.allowUsed && row.max_uses !== null && row.uses >= row.max_uses) throw usedLink();
  return { id: row.id, purpose: row.purpose, subjectId: row.subject_id, data: row.data, uses: row.uses, maxUses: row.max_uses, expiresAt: row.expires_at };
}

/**
 * Counts one use: a compare-and-set, so two submissions racing for the last use cannot both win.
 * Call it inside the write's transaction after validation, so a refused submission uses nothing.
 */
export async function consumeCapabilityUse(db: Db, capability: Capability): Promise<void> {
  const rows = await db.update(capabilityLinks)
    .set({ uses: sql`${capabilityLinks.uses} + 1`, last_used_at: new Date() })
    .where(and(
      eq(capabilityLinks.id, capability.id), isNull(capabilityLinks.revoked_at), gt(capabilityLinks.expires_at, new Date()),
      or(isNull(capabilityLinks.max_uses), lt(capabilityLinks.uses, capabilityLinks.max_uses)),
    ))
    .returning({ uses: capabilityLinks.uses });
  if (rows.length === 0) throw usedLink();
  capability.uses = rows[0].uses;
}

/** The token a capability route was called with: its `:token` param, else `?token=`. */
export function capabilityToken(request: FastifyRequest): unknown {
  const params = request.params as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  return params?.token ?? query?.token;
}
