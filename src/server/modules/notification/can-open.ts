// Who may open what a notification links to (issue 20). A notification goes only to people who can
// open its link: the screen it names (spec §2's route table) is their account type's, and they hold
// its permission. One check for every way a notification is made (notify, the named realtime events),
// so a link never leads its reader to Access Denied.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type AccountType, modelHasRoles, permissions, roleHasPermissions } from '../../db/schema/accounts';
import { hasPermission } from '../../../shared/permissions';
import { matchRoute } from '../../../shared/routes';

export interface LinkRecipient { type: AccountType; id: number }

/** What opening a link needs: the screen's account type and permission (none for a screen outside the layout). */
interface Requirement { account?: AccountType; permission?: string }

/** Requirements by link shape: record ids replaced, so a batch of reminders matches the route table once per screen. */
const requirements = new Map<string, Requirement | null>();
const MAX_REMEMBERED = 1000;

/** The requirement of a link, or null when it names no screen (no link, or one the route table does not know). */
export function linkRequirement(url: string | null | undefined): Requirement | null {
  if (!url) return null;
  let path = url;
  if (/^https?:\/\//i.test(url)) {
    try { path = new URL(url).pathname; } catch { return null; }
  }
  path = path.split(/[?#]/)[0];
  const shape = path.replace(/\/\d+(?=\/|$)/g, '/0');
  if (requirements.has(shape)) return requirements.get(shape)!;
  const match = matchRoute(shape);
  const found = match && match.route.kind === 'app' ? { account: match.route.account, permission: match.route.permission } : match ? {} : null;
  if (requirements.size >= MAX_REMEMBERED) requirements.clear();
  requirements.set(shape, found);
  return found;
}

/** Permission names an expression mentions ('a|b', 'a&b' or 'a'). */
const namesOf = (expression: string) => expression.split(/[|&]/).map((name) => name.trim()).filter(Boolean);
const ID_CHUNK = 10_000;

/**
 * For each link and its intended recipients, those who may open it, in order. Recipients of a link to
 * another account type's screen, or without its permission, are left out; a link to no screen keeps them all.
 */
export async function whoMayOpen(db: Db, links: readonly { url: string | null | undefined; recipients: readonly LinkRecipient[] }[]): Promise<LinkRecipient[][]> {
  const needs = links.map(({ url }) => linkRequirement(url));
  // What each account needs to be checked for, read in one query per account type (and id chunk).
  const wanted = { app: { ids: new Set<number>(), names: new Set<string>() }, partner: { ids: new Set<number>(), names: new Set<string>() } };
  links.forEach(({ recipients }, index) => {
    const permission = needs[index]?.permission;
    if (!permission) return;
    for (const recipient of recipients) {
      if (recipient.type !== needs[index]?.account) continue;
      wanted[recipient.type].ids.add(recipient.id);
      for (const name of namesOf(permission)) wanted[recipient.type].names.add(name);
    }
  });
  const held = new Map<string, string[]>();
  for (const type of ['app', 'partner'] as const) {
    const ids = [...wanted[type].ids];
    const names = [...wanted[type].names];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await db.selectDistinct({ id: modelHasRoles.account_id, name: permissions.name }).from(modelHasRoles)
        .innerJoin(roleHasPermissions, eq(roleHasPermissions.role_id, modelHasRoles.role_id))
        .innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
        .where(and(eq(modelHasRoles.account_type, type), inArray(modelHasRoles.account_id, ids.slice(i, i + ID_CHUNK)), inArray(permissions.name, names)));
      for (const row of rows) {
        const key = `${type}:${row.id}`;
        held.set(key, [...(held.get(key) ?? []), row.name]);
      }
    }
  }
  return links.map(({ recipients }, index) => {
    const need = needs[index];
    if (!need) return [...recipients];
    return recipients.filter((recipient) => (!need.account || recipient.type === need.account)
      && (!need.permission || hasPermission(held.get(`${recipient.type}:${recipient.id}`) ?? [], need.permission)));
  });
}
