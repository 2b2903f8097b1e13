// A workflow step's notifications (ARCHITECTURE "Workflows"): the people each recipient rule names are
// told in the words the definition declares for them, either after the write (notifyAbout) or inside the
// decision's one statement (notificationStatementAbout, decision 028). Apart from workflow.ts, which
// decides who may make a transition, so that each file stays one subject.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema/accounts';
import type { Transaction } from '../lib/transaction';
import { notificationStatement, type NotificationStatement, notify } from '../modules/notification/notify';
import type { Account } from '../plugins/auth';
import { namedEventOf } from '../realtime/events';
import type { EventFacts, NotificationText, NotificationWords, RecipientRule, ResourceDefinition } from '../../shared/resources/define';
import { actorName, OWNER_MANAGER_DELEGATES, type Row } from './types';
import { pascal, recordUrl } from './workflow';
import { DELEGATES_RULE, recipientsQuery, resolveRecipients, withDelegates } from './workflow-recipients';

/**
 * What the delegate of the owner's manager reads (issue 28): the manager's own words, and for whom they
 * stand in, so "Asha Rao applied for leave on 3–5 December 2026 (3 days). Decide it and arrange the back
 * fill. You are standing in for Maria Lopez, who is away."
 */
export function delegateWords(managerText: NotificationText, managerName: string): NotificationText {
  return { title: managerText.title, message: `${managerText.message} You are standing in for ${managerName}, who is away.` };
}

/** The name of the manager of the user `owner`, for their delegate's words. */
async function ownerManagerName(db: Db, owner: number): Promise<string> {
  const [found] = await db.select({ name: users.name }).from(users)
    .where(eq(users.id, db.select({ id: users.parent_id }).from(users).where(eq(users.id, owner)))).limit(1);
  return found?.name ?? 'their manager';
}

/** Each rule's words for a record, the delegates' derived from the manager's (`words` keyed by rule, the delegates' last). */
function wordsOfRules(words: NotificationWords, rules: readonly (RecipientRule | typeof DELEGATES_RULE)[], facts: EventFacts, managerName: string | null) {
  return rules.map((rule) => (rule === DELEGATES_RULE ? delegateWords(words.ownerManager!(facts), managerName ?? 'their manager') : words[rule]!(facts)));
}

/**
 * Tells the people of each recipient rule of `words` what it says for them (never the actor themselves;
 * someone two rules name gets the first one's words), once: after commit they see it live. The owner's
 * manager's delegate in force is told after the rules, in their own words (`delegateWords`).
 */
export async function notifyAbout(
  tx: Transaction, definition: ResourceDefinition, row: Row, words: NotificationWords | undefined, actor: Account, comment: string | null,
  event: string, isMailed = false,
) {
  const rules = withDelegates(Object.keys(words ?? {}) as RecipientRule[], definition.owner?.account);
  if (!rules.length) return;
  const owner = row[definition.workflow!.ownerField] as number;
  const facts: EventFacts = { record: row, actor: actorName(actor), comment };
  // spec §4's named events (a time sheet uploaded, a pre-billing submitted) keep their type and are told live on their own channels.
  const named = namedEventOf(definition.name, event);
  const type = named?.type ?? `App\\Notifications\\${pascal(definition.name)}${pascal(event)}`;
  const broadcast = named?.broadcast({ actor });
  const told = new Set([`${actor.type}:${actor.id}`]);
  let managerName: string | null = null;
  for (const rule of rules) {
    const recipients = ((await resolveRecipients(tx.db, [rule], [owner], definition.owner?.account)).get(owner) ?? [])
      .filter((r) => !told.has(`${r.type}:${r.id}`));
    if (!recipients.length) continue;
    for (const r of recipients) told.add(`${r.type}:${r.id}`);
    if (rule === DELEGATES_RULE) managerName = await ownerManagerName(tx.db, owner);
    const [text] = wordsOfRules(words!, [rule], facts, managerName);
    // Staff and partner logins open the record in their own area.
    for (const area of ['app', 'partner'] as const) {
      const those = recipients.filter((r) => r.type === area);
      if (those.length) await notify(tx, those, { ...text, url: recordUrl(definition, row.id as number, area) }, { type, isMailed, kind: definition.name, broadcast });
    }
  }
}

/**
 * `notifyAbout` as CTEs of the statement that makes the decision (routes/transitions.ts, decision 028):
 * the same recipients, words, links and rules, written in that one round trip. Null when the words tell
 * no one. The delegates of the owner's manager are among the candidates only when the row, read in this
 * transaction, says the manager has one in force: then their manager's name is read first.
 */
export async function notificationStatementAbout(
  tx: Transaction, definition: ResourceDefinition, row: Row, words: NotificationWords | undefined, actor: Account, comment: string | null,
  event: string, isMailed = false,
): Promise<NotificationStatement | null> {
  const declared = Object.keys(words ?? {}) as RecipientRule[];
  if (!declared.length) return null;
  const owner = row[definition.workflow!.ownerField];
  const hasDelegates = typeof owner === 'number' && (row[OWNER_MANAGER_DELEGATES] ?? []).length > 0;
  const rules = hasDelegates ? withDelegates(declared, definition.owner?.account) : declared;
  const managerName = rules.includes(DELEGATES_RULE) ? await ownerManagerName(tx.db, owner as number) : null;
  const facts: EventFacts = { record: row, actor: actorName(actor), comment };
  const named = namedEventOf(definition.name, event);
  const type = named?.type ?? `App\\Notifications\\${pascal(definition.name)}${pascal(event)}`;
  const texts = wordsOfRules(words!, rules, facts, managerName);
  const messages = texts.flatMap((text, index) => (['app', 'partner'] as const)
    .map((area) => ({ rule: index, area, content: { ...text, url: recordUrl(definition, row.id as number, area) } })));
  return notificationStatement(tx, recipientsQuery(rules, typeof owner === 'number' ? owner : null, definition.owner?.account), messages, { type: actor.type, id: actor.id }, {
    type, isMailed, kind: definition.name, broadcast: named?.broadcast({ actor }),
  });
}
