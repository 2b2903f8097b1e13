// Issue 22: people in bulk and their invitations. An import creates the accounts in one transaction
// (src/server/resources/importer.ts) with these hooks; the invitations go out afterwards from a job,
// throttled, and its progress is kept on the import for the screen to follow. An invitation can be
// sent again to whoever has not accepted it: the new link replaces the old one.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash } from '@node-rs/argon2';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { modelHasRoles, roles, users } from '../../db/schema/accounts';
import { imports } from '../../db/schema/imports';
import { enqueue } from '../../jobs/queue';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/register';
import type { ImportHooks } from '../../resources/importer';
import { isAdmin, isAdminAccount } from '../../../shared/permissions';
import type { UserType } from '../../../shared/resources/user';
import { sendSetPasswordLink } from '../auth/service';
import { checkAdminAccountChange, ROLE_GRANT_REFUSAL, roleIdByName, rolesBeyondGrant } from '../role/grants';
import { checkHrDates, checkNewAccountGrant } from './service';
import { oneOfChosenRefused } from '../../../shared/words';

/** The job that mails the invitations of an import, or of a bulk resend. */
export const INVITATION_JOB = 'invitations';

/**
 * Between two invitations: a mail server (and the inboxes of one firm) take a steady trickle better
 * than a burst of 5,000. 300 a minute sends a 200-person firm's in under a minute.
 */
export const INVITATION_INTERVAL_MS = 200;

/**
 * Where a person stands with their invitation (users' access_status): invited while they have never
 * set a password (the invitation sets it and verifies the address at once), never signed in until
 * their first sign-in, active after it.
 */
export const accessStatusOfUser = sql<string>`(case when "users"."force_password_reset" and "users"."email_verified_at" is null then 'invited'
  when "users"."last_login_at" is null then 'never signed in' else 'active' end)`;

interface PreparedImport {
  /** One hash of a random secret nobody keeps, shared by the new accounts until each sets its own: hashing 5,000 would take minutes. */
  password: string;
  /** Roles already judged for the caller, by id: null when they may give it, else why not. */
  refusals: Map<number, string | null>;
}

/** The import hooks of the admin, manager and user lists. */
export function userImportHooks(userType: UserType): ImportHooks {
  return {
    async prepare(ctx) {
      // The same refusals as one create: only an admin makes admins, and nobody makes an account of a type whose role they could not hold.
      if (isAdminAccount({ user_type: userType })) checkAdminAccountChange(ctx.account, 'create');
      await checkNewAccountGrant(ctx, userType, []);
      const prepared: PreparedImport = {
        password: await hash(randomBytes(32).toString('base64url')),
        refusals: new Map(),
      };
      return prepared;
    },
    async beforeCreate(values, input, ctx, prepared) {
      const { refusals, password } = prepared as PreparedImport;
      checkHrDates(values);
      const roleIds = (input.role_ids as number[] | undefined) ?? [];
      const unknown = roleIds.filter((id) => !refusals.has(id));
      if (unknown.length) await judgeRoles(ctx, unknown, refusals);
      const refused = roleIds.map((id) => refusals.get(id)).filter((reason): reason is string => !!reason);
      if (refused.length) throw validationError({ role_ids: [...new Set(refused)] });
      return { ...values, user_type: userType, password, force_password_reset: true, email_verified_at: null };
    },
    async afterCreate(created, ctx, importId) {
      const typeRoleId = await roleIdByName(ctx.db, userType);
      const memberships = created.flatMap(({ id, input }) => [...new Set([...(typeRoleId ? [typeRoleId] : []), ...((input.role_ids as number[] | undefined) ?? [])])]
        .map((role_id) => ({ role_id, account_type: 'app' as const, account_id: id })));
      for (let i = 0; i < memberships.length; i += 1000) await ctx.db.insert(modelHasRoles).values(memberships.slice(i, i + 1000));
      await ctx.db.update(imports).set({ invitations_total: created.length }).where(eq(imports.id, importId));
      await enqueue(ctx.db, INVITATION_JOB, { importId });
    },
  };
}

/** Whether the caller may give each role: app roles only, the admin role by an admin only, and only roles whose permissions they hold. */
async function judgeRoles(ctx: ResourceContext, roleIds: number[], refusals: Map<number, string | null>) {
  const found = await ctx.db.select({ id: roles.id, name: roles.name, account_type: roles.account_type }).from(roles).where(inArray(roles.id, roleIds));
  const beyond = new Set(await rolesBeyondGrant(ctx.db, ctx.account, roleIds));
  for (const id of roleIds) {
    const role = found.find((r) => r.id === id);
    if (!role || role.account_type !== 'app') refusals.set(id, oneOfChosenRefused('roles'));
    else if (isAdmin({ roles: [role.name] }) && !isAdmin(ctx.account)) refusals.set(id, 'Only an admin can grant the admin role.');
    else if (beyond.has(role.name)) refusals.set(id, `${ROLE_GRANT_REFUSAL} You cannot give the ${role.name} role.`);
    else refusals.set(id, null);
  }
}

/**
 * The job: mails each invitation of an import (or the accounts of a bulk resend) one after another,
 * INVITATION_INTERVAL_MS apart (the config's invitationIntervalMs where set), counting them on the import as it goes. A retried job carries on
 * after the last one counted; an account that accepted or was deactivated meanwhile is skipped.
 */
export async function sendInvitations(app: FastifyInstance, payload: unknown, intervalMs = app.config.invitationIntervalMs ?? INVITATION_INTERVAL_MS) {
  const { importId, userIds } = (payload ?? {}) as { importId?: number; userIds?: number[] };
  if (importId) {
    const [row] = await app.db.select().from(imports).where(eq(imports.id, importId));
    if (!row || row.invitations_done_at) return;
    for (let index = row.invitations_sent; index < row.record_ids.length; index += 1) {
      if (index > row.invitations_sent) await sleep(intervalMs);
      await inviteIfStillInvited(app, row.record_ids[index]);
      await app.db.update(imports).set({ invitations_sent: index + 1 }).where(eq(imports.id, importId));
    }
    await app.db.update(imports).set({ invitations_done_at: new Date() }).where(eq(imports.id, importId));
    return;
  }
  for (const [index, id] of (Array.isArray(userIds) ? userIds : []).entries()) {
    if (index > 0) await sleep(intervalMs);
    await inviteIfStillInvited(app, id);
  }
}

async function inviteIfStillInvited(app: FastifyInstance, id: number) {
  const [user] = await app.db.select({ email: users.email }).from(users)
    .where(and(eq(users.id, id), eq(users.status, 'active'), sql`${accessStatusOfUser} = 'invited'`));
  if (user) await sendSetPasswordLink(app, 'app', user.email);
}

/**
 * The people of one list (a type) that may be invited again: still invited, active, and (for an
 * admin's account) only by an admin. Throws naming the first one that may not.
 */
export async function invitablePeople(ctx: ResourceContext, userType: UserType, ids: number[]): Promise<{ id: number; email: string; name: string }[]> {
  if (isAdminAccount({ user_type: userType })) checkAdminAccountChange(ctx.account, 'edit');
  const found = await ctx.db.select({ id: users.id, email: users.email, name: users.name, status: users.status, access: accessStatusOfUser }).from(users)
    .where(and(inArray(users.id, ids), eq(users.user_type, userType)));
  if (found.length !== new Set(ids).size) throw new HttpError(404, ids.length === 1 ? 'Person not found.' : 'Some of the chosen people were not found.');
  for (const person of found) {
    if (person.status !== 'active') throw new HttpError(409, `${person.name} is inactive: activate the account before inviting them again.`);
    if (person.access !== 'invited') throw new HttpError(409, `${person.name} has already accepted the invitation and set a password. If they forgot it, they can use "Forgot password" on the sign-in page.`);
  }
  return found;
}
