// Approvals while away (issue 28, decisions 036 and 041): a manager hands their decisions over to another
// manager for a range of days. Who may, the sentences each side reads, and the delegate told of it. The
// routes check the permission (can-delegate-approvals); the rules of who gives and who receives are here.
import { and, asc, eq, gte, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { delegations } from '../../db/schema/delegations';
import { type Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { Transaction } from '../../lib/transaction';
import { recordChange } from '../../resources/audit';
import { notify } from '../notification/notify';
import { today } from '../../../shared/dates';
import { isAdmin } from '../../../shared/permissions';
import { routePath } from '../../../shared/routes';
import { dayName, daySpan, quoted } from '../../../shared/resources/offline-words';
import type { Delegation, DelegationInput } from '../../../shared/schemas/delegation';
import { holdsDelegatePermissionSql } from './scope';

type UserRow = typeof users.$inferSelect;

/** Only managers hand over their decisions (and receive others'); an admin sets one up for any manager. */
export const isManager = (account: Account) => account.type === 'app' && (account.user as UserRow).user_type === 'manager';
export const mayDelegate = (account: Account) => isManager(account) || isAdmin(account);

const delegate = alias(users, 'delegate');
const manager = alias(users, 'manager');

type Found = {
  id: number; manager_id: number; manager_name: string; delegate_id: number; delegate_name: string; starts_on: string; ends_on: string; note: string | null;
  manager_status: string; delegate_status: string; manager_may: boolean;
};

/**
 * Why a hand-over has no effect now although not withdrawn (scope.ts `partiesAllowSql`), said to the
 * reader; null while its parties allow it. It counts again, for its remaining days, once they do.
 */
function noEffectReason(row: Found, account: Account): string | null {
  const isManager = row.manager_id === account.id;
  const isDelegate = row.delegate_id === account.id;
  const whoDecides = isDelegate ? 'you do not decide for them' : isManager ? 'you decide your approvals yourself' : `${row.delegate_name} does not decide for them`;
  if (row.manager_status !== 'active') return `It has no effect: ${isManager ? 'your' : `${row.manager_name}'s`} account is inactive.`;
  if (!row.manager_may) {
    return isManager ? 'It has no effect: you may no longer hand your approvals over.'
      : `It has no effect: ${row.manager_name} may no longer hand approvals over, so ${whoDecides}.`;
  }
  if (row.delegate_status !== 'active') return `It has no effect: ${isDelegate ? 'your' : `${row.delegate_name}'s`} account is inactive, so ${whoDecides}.`;
  return null;
}

/** A delegation as the caller reads it: the manager is told who decides for them, the delegate for whom. */
function view(row: Found, account: Account, day = today()): Delegation {
  const isInForce = row.starts_on <= day && day <= row.ends_on;
  // While in force: until its last day; before: its days.
  const when = isInForce ? `until ${dayName(row.ends_on)}` : `on ${daySpan(row.starts_on, row.ends_on)}`;
  const sentence = row.delegate_id === account.id ? `You decide ${row.manager_name}'s approvals ${when}.`
    : row.manager_id === account.id ? `${row.delegate_name} decides your approvals ${when}.`
      : `${row.delegate_name} decides ${row.manager_name}'s approvals ${when}.`;
  return {
    id: row.id, manager: { id: row.manager_id, name: row.manager_name }, delegate: { id: row.delegate_id, name: row.delegate_name },
    starts_on: row.starts_on, ends_on: row.ends_on, note: row.note, is_in_force: isInForce, sentence, no_effect: noEffectReason(row, account),
  };
}

const selection = {
  id: delegations.id, manager_id: delegations.manager_id, manager_name: manager.name, delegate_id: delegations.delegate_id,
  delegate_name: delegate.name, starts_on: delegations.starts_on, ends_on: delegations.ends_on, note: delegations.note,
  manager_status: manager.status, delegate_status: delegate.status, manager_may: holdsDelegatePermissionSql(sql`${manager.id}`),
};

const found = (db: Db) => db.select(selection).from(delegations)
  .innerJoin(manager, eq(manager.id, delegations.manager_id)).innerJoin(delegate, eq(delegate.id, delegations.delegate_id));

/** The caller's delegations not yet over: those they gave and those given to them; an admin also every other one. */
export async function listDelegations(db: Db, account: Account) {
  const day = today();
  const live = and(isNull(delegations.withdrawn_at), gte(delegations.ends_on, day));
  const theirs = or(eq(delegations.manager_id, account.id), eq(delegations.delegate_id, account.id));
  const rows = await found(db).where(isAdmin(account) ? live : and(live, theirs))
    .orderBy(asc(delegations.starts_on), asc(delegations.id)).limit(500);
  return {
    can_delegate: mayDelegate(account),
    given: rows.filter((row) => row.manager_id === account.id).map((row) => view(row, account, day)),
    received: rows.filter((row) => row.delegate_id === account.id).map((row) => view(row, account, day)),
    others: rows.filter((row) => row.manager_id !== account.id && row.delegate_id !== account.id).map((row) => view(row, account, day)),
  };
}

/**
 * The managers who may decide for the caller (an admin: for the manager named, else any): every other
 * active manager. Nobody, for someone holding the permission who is neither a manager nor an admin:
 * they have no approvals to hand over.
 */
export async function delegateCandidates(db: Db, account: Account, named?: number) {
  if (!mayDelegate(account)) return [];
  const managerId = isAdmin(account) && named ? named : account.id;
  const rows = await db.select({ id: users.id, label: users.name }).from(users)
    .where(and(eq(users.user_type, 'manager'), eq(users.status, 'active'), ne(users.id, managerId))).orderBy(asc(users.name)).limit(200);
  return rows;
}

/** Hands the decisions of the caller (or, for an admin, of the manager named) to another manager. */
export async function createDelegation(tx: Transaction, account: Account, input: DelegationInput) {
  if (!mayDelegate(account)) throw new HttpError(403, 'Only a manager can hand their approvals to someone else.');
  const managerId = input.manager_id ?? account.id;
  if (managerId !== account.id && !isAdmin(account)) throw validationError({ manager_id: 'You can hand over only your own approvals.' });
  // Locked: of two hand-overs of one manager created at once, the second waits here and then sees the first (overlap below).
  const [principal] = await tx.db.select().from(users).where(eq(users.id, managerId)).limit(1).for('no key update');
  if (!principal || principal.user_type !== 'manager') throw validationError({ manager_id: 'Only a manager\'s approvals can be handed over.' });
  const [chosen] = await tx.db.select().from(users).where(eq(users.id, input.delegate_id)).limit(1);
  if (!chosen || chosen.user_type !== 'manager') throw validationError({ delegate_id: 'Choose a manager: only managers can decide for another manager.' });
  if (chosen.id === managerId) throw validationError({ delegate_id: 'Choose someone else: a manager cannot decide for themself.' });
  if (chosen.status !== 'active') throw validationError({ delegate_id: `${chosen.name} is inactive: choose an active manager.` });
  if (input.ends_on < input.starts_on) throw validationError({ ends_on: 'The last day must be on or after the first day.' });
  if (input.ends_on < today()) throw validationError({ ends_on: 'The last day has passed: choose days from today on.' });
  await refuseOverlap(tx, account, managerId, input);
  const [row] = await tx.db.insert(delegations).values({
    manager_id: managerId, delegate_id: chosen.id, starts_on: input.starts_on, ends_on: input.ends_on, note: input.note || null, created_by: account.id,
  }).returning({ id: delegations.id });
  await recordChange(tx.db, {
    account, action: 'create', resource: 'delegation', recordId: row.id, title: `${principal.name} to ${chosen.name}`,
    changes: [
      { field: 'delegate_id', new: chosen.id, new_text: chosen.name },
      { field: 'starts_on', new: input.starts_on, new_text: input.starts_on },
      { field: 'ends_on', new: input.ends_on, new_text: input.ends_on },
    ],
  });
  const [saved] = await found(tx.db).where(eq(delegations.id, row.id));
  const data = view(saved, account);
  await tellOfHandOver(tx, account, saved, 'given');
  return { data, message: managerId === account.id ? `${chosen.name} will decide your approvals on ${daySpan(input.starts_on, input.ends_on)}.` : data.sentence };
}

/**
 * One hand-over at a time per manager (issue 28): a range that shares a day with one not withdrawn and
 * not over is refused on the first day. The caller holds the manager's row lock (createDelegation).
 */
async function refuseOverlap(tx: Transaction, account: Account, managerId: number, input: DelegationInput) {
  const [clash] = await found(tx.db).where(and(
    eq(delegations.manager_id, managerId), isNull(delegations.withdrawn_at), gte(delegations.ends_on, today()),
    lte(delegations.starts_on, input.ends_on), gte(delegations.ends_on, input.starts_on),
  )).orderBy(asc(delegations.starts_on)).limit(1);
  if (!clash) return;
  const days = `from ${dayName(clash.starts_on)} to ${dayName(clash.ends_on)}`;
  throw validationError({
    starts_on: managerId === account.id
      ? `You have already handed over your approvals to ${clash.delegate_name} ${days}. Choose other days, or withdraw that hand-over first.`
      : `${clash.manager_name} has already handed over their approvals to ${clash.delegate_name} ${days}. Choose other days, or withdraw that hand-over first.`,
  });
}

/** Ends a delegation now (the manager themself, or an admin). */
export async function withdrawDelegation(tx: Transaction, account: Account, id: number) {
  const [row] = await tx.db.select().from(delegations).where(and(eq(delegations.id, id), isNull(delegations.withdrawn_at))).limit(1);
  if (!row || (row.manager_id !== account.id && row.delegate_id !== account.id && !isAdmin(account))) throw new HttpError(404, 'No such delegation.');
  if (row.delegate_id === account.id && row.manager_id !== account.id && !isAdmin(account)) {
    throw new HttpError(403, 'Only the manager who handed over their approvals can take them back.');
  }
  await tx.db.update(delegations).set({ withdrawn_at: new Date() }).where(eq(delegations.id, id));
  await recordChange(tx.db, { account, action: 'delete', resource: 'delegation', recordId: id, changes: [] });
  const [withdrawn] = await found(tx.db).where(eq(delegations.id, id));
  await tellOfHandOver(tx, account, withdrawn, 'withdrawn');
  return { message: row.manager_id === account.id ? 'You decide your approvals again.' : 'The delegation is withdrawn.' };
}

/**
 * The delegate is told when approvals are handed to them and when they are taken back; the manager too
 * when an admin did it for them. The link opens Approvals While Away at the hand-over (only those holding
 * its permission receive it, notify.ts); its withdrawal replaces the unread news of it.
 */
async function tellOfHandOver(tx: Transaction, account: Account, row: Found, event: 'given' | 'withdrawn') {
  const days = daySpan(row.starts_on, row.ends_on);
  const byAdmin = account.id !== row.manager_id;
  const actor = (account.user as UserRow).name;
  const hasStarted = row.starts_on <= today();
  // The hand-over's own anchor: news of another hand-over is not folded into this one's (notify.ts coalesces by link).
  const url = `${routePath('delegation')}#hand-over-${row.id}`;
  const options = { type: `App\\Notifications\\Delegation${event === 'given' ? 'Given' : 'Withdrawn'}`, kind: 'delegation' };
  const note = row.note ? ` ${byAdmin ? 'The' : 'Their'} note: ${quoted(row.note, 200)}.` : '';
  if (event === 'given') {
    const opening = byAdmin ? `${actor} has handed ${row.manager_name}'s approvals to you` : `${row.manager_name} has handed their approvals to you`;
    await notify(tx, [row.delegate_id], {
      title: 'Approvals handed to you',
      message: `${opening} on ${days}: you decide the leave, expense claims and time sheets of their team on those days.${note}`,
      url,
    }, { ...options, isMailed: true });
    if (byAdmin) {
      await notify(tx, [row.manager_id], {
        title: 'Your approvals are handed over',
        message: `${actor} has handed your approvals to ${row.delegate_name} on ${days}: they decide your team's leave, expense claims and time sheets on those days.`,
        url,
      }, options);
    }
    return;
  }
  const taken = hasStarted ? 'no longer decide them' : `will not decide them on ${days}`;
  await notify(tx, [row.delegate_id], {
    title: 'Approvals taken back',
    message: byAdmin ? `${actor} has taken ${row.manager_name}'s approvals back from you: you ${taken}.`
      : `${row.manager_name} has taken their approvals back: you ${taken}.`,
    url,
  }, options);
  if (byAdmin) {
    await notify(tx, [row.manager_id], {
      title: 'Your approvals are yours again',
      message: `${actor} has taken your approvals back from ${row.delegate_name}: you decide them again${hasStarted ? '' : ` on ${days}`}.`,
      url,
    }, options);
  }
}
