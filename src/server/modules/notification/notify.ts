// The one way to tell people something (ARCHITECTURE "Notifications"): a stored notification per
// recipient (spec §3 shape) written in the caller's transaction, then, after the commit, a live
// broadcast on Laravel's per-account channel that Echo's `.notification()` receives, and optional mail.
// Only those who may open the notification's link receive it (can-open.ts).
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { AccountType } from '../../db/schema/accounts';
import { modelHasRoles, partnerAccounts, permissions, personalAccessTokens, roleHasPermissions, users } from '../../db/schema/accounts';
import { notificationPreferences, notifications, type NotificationData } from '../../db/schema/notifications';
import { pushSubscriptions } from '../../db/schema/push';
import { jobs } from '../../db/schema/workflow';
import { enqueue } from '../../jobs/queue';
import type { Transaction } from '../../lib/transaction';
import { actionMail } from '../../plugins/mail';
import { defaultChannel, kindOf, NOTIFICATION_MAIL_JOB, type NotificationChannel, PUSH_JOB } from '../../../shared/notification-kinds';
import { linkRequirement, whoMayOpen } from './can-open';
import { firmName } from '../setting/firm-profile';
import type { NamedBroadcast } from '../../realtime/events';
import { enqueuePushes } from '../push/send';

export interface Recipient { type: AccountType; id: number }

/** Laravel's per-account notification channel (`App.Models.User.{id}`, with the `private-` prefix). */
export const notificationChannel = ({ type, id }: Recipient) =>
  `private-App.Models.${type === 'partner' ? 'Partner' : 'User'}.${id}`;

/** The event Echo's `.notification()` listens for. */
export const NOTIFICATION_EVENT = 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated';

/** A generic type; workflows name their own (`App\Notifications\LeaveApplicationSubmitted`). */
export const DEFAULT_NOTIFICATION_TYPE = 'App\\Notifications\\WorkflowNotification';

export interface NotifyOptions {
  /** Stored as the notification's type (Laravel's class name). */
  type?: string;
  /** Its kind (src/shared/notification-kinds.ts), by which its recipients chose how they hear of it; 'other' when absent. */
  kind?: string;
  /** Mail it to those who have not chosen otherwise for its kind (a decision someone waits for). */
  isMailed?: boolean;
  /**
   * One event about one record (`notify`): a recipient's unread notification with the same link from
   * the last COALESCE_MINUTES is updated rather than joined by another.
   */
  isCoalesced?: boolean;
  /**
   * spec §4's named events (a time sheet uploaded, a pre-billing submitted; src/server/realtime/events.ts):
   * after the commit, those who see it in the app are told on the event's own channel instead of their
   * notification channel, so their client toasts it once.
   */
  broadcast?: NamedBroadcast;
}

/** Stores one notification per distinct recipient; broadcasts (and mails) after the commit. Returns their ids. */
export async function notify(tx: Transaction, recipients: readonly (Recipient | number)[], content: NotificationData, options: NotifyOptions = {}): Promise<string[]> {
  const [ids] = await notifyEach(tx, [{ recipients, content }], { isCoalesced: true, ...options });
  return ids;
}

/** One message and whom it is for. */
export interface NotificationItem { recipients: readonly (Recipient | number)[]; content: NotificationData }

/** Rows per INSERT (about 1.5 MB of JSON). */
const INSERT_CHUNK = 10_000;
/** Broadcasts in flight at once after the commit (each may be a Redis PUBLISH). */
const BROADCAST_CHUNK = 1_000;
/** Events about one record for one person within this many minutes make one notification (issue 24). */
export const COALESCE_MINUTES = 10;

type Row = { id: string; notifiable_type: AccountType; notifiable_id: number; data: NotificationData; is_in_app: boolean; mail: 'now' | 'digest' | null };

/**
 * `notify` for many messages at once (the daily reminders: one per record): multi-row inserts in
 * chunks, broadcasts after the commit. Each recipient gets it as they chose for its kind (in the
 * app, by mail, both or not at all); mail goes from the job queue. Returns the ids of each item's
 * notifications, in item order.
 */
export async function notifyEach(tx: Transaction, items: readonly NotificationItem[], options: NotifyOptions = {}): Promise<string[][]> {
  const type = options.type ?? DEFAULT_NOTIFICATION_TYPE;
  const kind = kindOf(options.kind);
  const rows: Row[] = [];
  const updates: Row[] = [];
  const ids: string[][] = [];
  const intended = items.map(({ recipients, content }) => {
    const distinct = new Map<string, Recipient>();
    for (const entry of recipients) {
      const recipient = typeof entry === 'number' ? { type: 'app' as const, id: entry } : entry;
      distinct.set(`${recipient.type}:${recipient.id}`, recipient);
    }
    return { url: content.url, recipients: [...distinct.values()] };
  });
  const allowed = await whoMayOpen(tx.db, intended);
  const choices = await preferencesOf(tx, allowed.flat());
  for (const [index, { content }] of items.entries()) {
    const itemIds: string[] = [];
    // Stored and broadcast alike: a missing url is null (spec §3), never an absent key.
    const data: NotificationData = { title: content.title, message: content.message, url: content.url ?? null };
    const recent = options.isCoalesced && data.url ? await recentUnread(tx, allowed[index], data.url) : new Map<string, string>();
    for (const recipient of allowed[index]) {
      const key = `${recipient.type}:${recipient.id}`;
      const chosen = choices.get(key);
      const channel = chosen?.channels[kind] ?? defaultChannel(!!options.isMailed);
      if (channel === 'none') continue;
      const mail = channel === 'email' || channel === 'both' ? (chosen?.is_digest ? 'digest' as const : 'now' as const) : null;
      // Ids made here rather than returned by the insert: the broadcast needs each row's id and content, and
      // RETURNING a large batch would only send back what we already hold.
      const row = { id: recent.get(key) ?? randomUUID(), notifiable_type: recipient.type, notifiable_id: recipient.id, data, is_in_app: channel !== 'email', mail };
      itemIds.push(row.id);
      (recent.has(key) ? updates : rows).push(row);
    }
    ids.push(itemIds);
  }
  // One JSON parameter per chunk rather than `insert().values()`: building and binding five parameters
  // a row took eight times as long for the daily reminders' 100,000 (docs/benchmarks.md "Daily reminders").
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK));
    await tx.db.execute(sql`insert into ${notifications} (id, notifiable_type, notifiable_id, type, kind, data, is_in_app, mail)
      select row.id, row.notifiable_type, row.notifiable_id, ${type}, ${kind}, row.data, row.is_in_app, row.mail
      from jsonb_to_recordset(${chunk}::jsonb) as row(id uuid, notifiable_type varchar, notifiable_id integer, data jsonb, is_in_app boolean, mail varchar)`);
  }
  // The same record again within the window: its reader's notification now says the latest, at the top, unread.
  for (const row of updates) {
    await tx.db.update(notifications).set({ data: row.data, type, created_at: new Date(), is_in_app: row.is_in_app, mail: row.mail })
      .where(eq(notifications.id, row.id));
  }
  const all = [...rows, ...updates];
  if (!all.length) return ids;
  const mailNow = all.filter((row) => row.mail === 'now').map((row) => row.id);
  if (mailNow.length) {
    // Queued in the same transaction as the rows, so a mail is never lost nor sent for a rolled-back event.
    await enqueue(tx.db, NOTIFICATION_MAIL_JOB, { ids: mailNow });
  }
  const shown = all.filter((row) => row.is_in_app);
  // Issue 29: what shows in the app also reaches the reader's opted-in devices, from the queue (decision 038).
  await enqueuePushes(tx, shown);
  afterNotified(tx, type, shown, options, mailNow.length > 0);
  return ids;
}

/**
 * What follows a commit that stored notifications: the live broadcast to those who see them in the app
 * (on the named event's channel, or each reader's notification channel), and the mail queue woken
 * rather than left to its next poll when a mail was queued.
 */
function afterNotified(tx: Transaction, type: string, shown: readonly Pick<Row, 'id' | 'notifiable_type' | 'notifiable_id' | 'data'>[], options: NotifyOptions, isMailQueued: boolean) {
  const { app } = tx;
  if (shown.length) tx.onCommit(async () => {
    if (options.broadcast) {
      await options.broadcast(app, shown.map(({ id, notifiable_type, notifiable_id, data }) => ({ id, recipient: { type: notifiable_type, id: notifiable_id }, data })));
      return;
    }
    for (let i = 0; i < shown.length; i += BROADCAST_CHUNK) {
      await Promise.all(shown.slice(i, i + BROADCAST_CHUNK).map(({ id, notifiable_type, notifiable_id, data }) => app.broadcaster.publish(
        [notificationChannel({ type: notifiable_type, id: notifiable_id })],
        NOTIFICATION_EVENT,
        { id, type, title: data.title, message: data.message, url: data.url },
      )));
    }
  });
  if (isMailQueued) tx.onCommit(() => { void app.jobs?.runDue().catch((error: unknown) => app.log.error({ err: error }, 'notification mail job not run')); });
}

/** A message of a notification written inside another statement: its words for the recipients one rule names in one area. */
export interface StatementMessage { rule: number; area: AccountType; content: NotificationData }

/** What `notificationStatement` adds to a statement, and what to do with its answer. */
export interface NotificationStatement {
  /** What its text depends on (db/named.ts `shapedRows`): the same shape, the same text. */
  shape: string;
  /**
   * Its CTEs (each beginning with a comma) and the columns of the statement's final select (`notices`,
   * `mail_jobs`, `push_jobs`), with placeholders for what varies; `onlyIf`: a condition without which
   * nobody is told (a decision's `exists (select 1 from changed)`).
   */
  build(onlyIf?: SQL): { ctes: SQL; columns: SQL };
  /** The values of those placeholders for this event. */
  values: Record<string, unknown>;
  /** Given the statement's answer row: the broadcast and the mail queue's wake-up after the commit. */
  finish(answer: { notices?: unknown; mail_jobs?: unknown; push_jobs?: unknown }): void;
}

/**
 * `notify` folded into the caller's statement (issue 27, decision 028): the same rules as `notifyEach`
 * for one event, as CTEs, so a workflow decision is one round trip. `candidates` selects the intended
 * recipients as `(rule int, type varchar, id int)`; each gets the message of the first rule naming them
 * for their area (never the actor), only if they may open its link (can-open.ts, in SQL), as they chose
 * for its kind (`notification_preferences`), coalesced with their unread notification with the same
 * link from the last COALESCE_MINUTES; mail is queued in the same statement. Used only where the
 * statement's rollback (a 409) takes these rows with it. Its text depends only on the candidates'
 * shape and the options: the candidates' values, the messages and the actor are bound to placeholders
 * (decision 050), so one kind of event is one text.
 */
export function notificationStatement(
  tx: Transaction, candidates: { shape: string; build: () => SQL; values: Record<string, unknown> },
  messages: readonly StatementMessage[], actor: Recipient, options: NotifyOptions = {},
): NotificationStatement {
  const type = options.type ?? DEFAULT_NOTIFICATION_TYPE;
  const kind = kindOf(options.kind);
  const fallback = defaultChannel(!!options.isMailed);
  const isCoalesced = options.isCoalesced !== false;
  const plan = JSON.stringify(messages.map(({ rule, area, content }) => {
    const data: NotificationData = { title: content.title, message: content.message, url: content.url ?? null };
    const need = linkRequirement(data.url);
    const expression = need?.permission;
    const names = expression ? expression.split(/[|&]/).map((name) => name.trim()).filter(Boolean) : null;
    return { rule, area, data, account: need?.account ?? null, perms: names, needed: names ? (expression!.includes('&') ? names.length : 1) : 0 };
  }));
  return {
    shape: `${candidates.shape}|${type}|${kind}|${fallback}|${isCoalesced}`,
    build: (onlyIf) => noticeCtes(candidates.build(), type, kind, fallback, isCoalesced, onlyIf),
    values: { ...candidates.values, notice_plan: plan, notice_actor_type: actor.type, notice_actor_id: actor.id },
    finish(answer) {
      const parsed = typeof answer.notices === 'string' ? JSON.parse(answer.notices) as unknown : answer.notices;
      const written = (Array.isArray(parsed) ? parsed : []) as (Pick<Row, 'id' | 'notifiable_type' | 'notifiable_id' | 'data'> & { is_in_app: boolean })[];
      afterNotified(tx, type, written.filter((row) => row.is_in_app), options, Number(answer.mail_jobs) > 0 || Number(answer.push_jobs) > 0);
    },
  };
}

/** The CTEs of `notificationStatement`: its plan and actor are placeholders, the rest fixed by the shape. */
function noticeCtes(candidates: SQL, type: string, kind: string, fallback: NotificationChannel, isCoalesced: boolean, onlyIf: SQL | undefined): { ctes: SQL; columns: SQL } {
  const actorType = sql.placeholder('notice_actor_type');
  const actorId = sql.placeholder('notice_actor_id');
  const mailOf = sql`case when d.channel in ('email', 'both') then case when coalesce(d.is_digest, false) then 'digest' else 'now' end end`;
  const recent = !isCoalesced ? sql`null::uuid` : sql`(select n.id from ${notifications} n where n.notifiable_type = t.type and n.notifiable_id = t.id
      and n.read_at is null and n.data->>'url' = m.data->>'url' and n.created_at > now() - ${COALESCE_MINUTES} * interval '1 minute' order by n.created_at desc limit 1)`;
  const ctes = sql`, notice_messages as (
    select * from jsonb_to_recordset(${sql.placeholder('notice_plan')}::jsonb) as m(rule int, area varchar, data jsonb, account varchar, perms jsonb, needed int)
  ), notice_candidates (rule, type, id) as (${candidates}), notice_told as (
    select distinct on (c.type, c.id) c.rule, c.type, c.id from notice_candidates c
    where c.id is not null and not (c.type = ${actorType}::varchar and c.id = ${actorId}::int)${onlyIf ? sql` and ${onlyIf}` : sql``}
    order by c.type, c.id, c.rule
  ), notice_decided as (
    select t.type, t.id, m.data, ch.channel, p.is_digest, ${recent} as recent
    from notice_told t
    join notice_messages m on m.rule = t.rule and m.area = t.type
    left join ${notificationPreferences} p on p.account_type = t.type and p.account_id = t.id
    cross join lateral (select coalesce(p.channels->>${kind}, ${fallback}) as channel) ch
    where ch.channel <> 'none' and (m.account is null or m.account = t.type)
      and (m.perms is null or (select count(distinct pm.name) from ${modelHasRoles} r
        join ${roleHasPermissions} rp on rp.role_id = r.role_id join ${permissions} pm on pm.id = rp.permission_id
        where r.account_type = t.type and r.account_id = t.id and pm.name in (select jsonb_array_elements_text(m.perms))) >= m.needed)
  ), notice_fresh as (
    insert into ${notifications} (notifiable_type, notifiable_id, type, kind, data, is_in_app, mail)
    select d.type, d.id, ${type}, ${kind}, d.data, d.channel <> 'email', ${mailOf} from notice_decided d where d.recent is null
    returning id, notifiable_type, notifiable_id, data, is_in_app, mail
  ), notice_refreshed as (
    update ${notifications} n set data = d.data, type = ${type}, created_at = now(), is_in_app = d.channel <> 'email', mail = ${mailOf}
    from notice_decided d where n.id = d.recent
    returning n.id, n.notifiable_type, n.notifiable_id, n.data, n.is_in_app, n.mail
  ), notice_written as (
    select * from notice_fresh union all select * from notice_refreshed
  ), notice_mail as (
    insert into ${jobs} (name, payload) select ${NOTIFICATION_MAIL_JOB}, jsonb_build_object('ids', jsonb_agg(w.id))
    from notice_written w where w.mail = 'now' having count(*) > 0 returning id
  ), notice_push as (
    insert into ${jobs} (name, payload) select ${PUSH_JOB}, jsonb_build_object('ids', jsonb_agg(w.id))
    from notice_written w where w.is_in_app and exists (select 1 from ${pushSubscriptions} s
      where s.account_type = w.notifiable_type and s.account_id = w.notifiable_id
      -- A device whose session ran out gets nothing (decision 045; sessionLive in push/send.ts).
      and exists (select 1 from ${personalAccessTokens} pat where pat.id = s.token_id and (pat.expires_at is null or pat.expires_at > now())))
    having count(*) > 0 returning id
  )`;
  const columns = sql`(select coalesce(json_agg(json_build_object('id', w.id, 'notifiable_type', w.notifiable_type, 'notifiable_id', w.notifiable_id,
      'data', w.data, 'is_in_app', w.is_in_app)), '[]'::json) from notice_written w) as notices,
    (select count(*)::int from notice_mail) as mail_jobs, (select count(*)::int from notice_push) as push_jobs`;
  return { ctes, columns };
}

/** Each recipient's unread notification with this link from the last COALESCE_MINUTES, by `type:id`. */
async function recentUnread(tx: Transaction, recipients: readonly Recipient[], url: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const type of ['app', 'partner'] as const) {
    const ids = recipients.filter((r) => r.type === type).map((r) => r.id);
    if (!ids.length) continue;
    const rows = await tx.db.select({ id: notifications.id, owner: notifications.notifiable_id }).from(notifications).where(and(
      eq(notifications.notifiable_type, type), inArray(notifications.notifiable_id, ids), isNull(notifications.read_at),
      sql`${notifications.data}->>'url' = ${url}`, gt(notifications.created_at, sql`now() - ${COALESCE_MINUTES} * interval '1 minute'`),
    )).orderBy(desc(notifications.created_at));
    for (const row of rows) if (!found.has(`${type}:${row.owner}`)) found.set(`${type}:${row.owner}`, row.id);
  }
  return found;
}

/** The stored choices of those recipients who made any, by `type:id`. */
async function preferencesOf(tx: Transaction, recipients: readonly Recipient[]): Promise<Map<string, { channels: Record<string, NotificationChannel>; is_digest: boolean }>> {
  const found = new Map<string, { channels: Record<string, NotificationChannel>; is_digest: boolean }>();
  for (const type of ['app', 'partner'] as const) {
    const ids = [...new Set(recipients.filter((r) => r.type === type).map((r) => r.id))];
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await tx.db.select().from(notificationPreferences)
        .where(and(eq(notificationPreferences.account_type, type), inArray(notificationPreferences.account_id, ids.slice(i, i + INSERT_CHUNK))));
      for (const row of rows) found.set(`${type}:${row.account_id}`, { channels: row.channels, is_digest: row.is_digest });
    }
  }
  return found;
}

/** The job: mails the notifications of `ids` still waiting to be mailed, each as its bell entry reads, and marks them sent. */
export async function sendNotificationMails(app: FastifyInstance, payload: unknown): Promise<void> {
  const ids = (payload as { ids?: unknown }).ids;
  if (!Array.isArray(ids) || !ids.length) return;
  const rows = await app.db.select().from(notifications).where(and(inArray(notifications.id, ids as string[]), eq(notifications.mail, 'now')));
  if (!rows.length) return;
  const emails = await recipientEmails(app.db, rows.map((row) => ({ type: row.notifiable_type, id: row.notifiable_id })));
  // Signed with the firm's name once it has one (issue 22).
  const signature = await firmName(app, app.db);
  for (const row of rows) {
    const to = emails.get(`${row.notifiable_type}:${row.notifiable_id}`);
    if (to) await app.mailer.send(actionMail(signature, to, row.data.title, row.data.message, 'Open', mailUrl(app, row), ''));
    // Marked one by one: a retry after a failure sends only those not sent yet. Only as it was sent: one
    // coalesced meanwhile (a payment after the approval, now saying more) is still to be mailed by its own job.
    await app.db.update(notifications).set({ mail: 'sent' }).where(and(eq(notifications.id, row.id), eq(notifications.mail, 'now'), eq(notifications.data, row.data)));
  }
}

/** The recurring job: each person who chose a digest gets the day's held notifications in one mail. */
export async function sendNotificationDigests(app: FastifyInstance): Promise<void> {
  const rows = await app.db.select().from(notifications).where(eq(notifications.mail, 'digest')).orderBy(asc(notifications.created_at));
  if (!rows.length) return;
  const byRecipient = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.notifiable_type}:${row.notifiable_id}`;
    byRecipient.set(key, [...(byRecipient.get(key) ?? []), row]);
  }
  const emails = await recipientEmails(app.db, rows.map((row) => ({ type: row.notifiable_type, id: row.notifiable_id })));
  const signature = await firmName(app, app.db);
  for (const [key, held] of byRecipient) {
    const to = emails.get(key);
    if (to) {
      const list = held.map((row) => `${row.data.title}\n${row.data.message}\n${mailUrl(app, row)}`).join('\n\n');
      const subject = held.length === 1 ? held[0].data.title : `${held.length} notifications since yesterday`;
      const listUrl = absoluteUrl(app.config.appUrl, held[0].notifiable_type === 'partner' ? '/partner/notification' : '/notification');
      await app.mailer.send(actionMail(signature, to, subject, `Here is what happened since your last digest:\n\n${list}`, 'Open your notifications', listUrl, ''));
    }
    await app.db.update(notifications).set({ mail: 'sent' }).where(and(inArray(notifications.id, held.map((row) => row.id)), eq(notifications.mail, 'digest')));
  }
}

/** Where a notification's mail leads: its link, else the recipient's own list (a partner's lives under /partner). */
const mailUrl = (app: FastifyInstance, row: { notifiable_type: AccountType; data: NotificationData }) =>
  absoluteUrl(app.config.appUrl, row.data.url ?? (row.notifiable_type === 'partner' ? '/partner/notification' : '/notification'));

/** APP_URL joined to an app path, keeping APP_URL's own path (`new URL('/x', base)` would drop it). */
function absoluteUrl(appUrl: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${appUrl.replace(/\/$/, '')}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** The email of each active recipient, by `type:id`. */
async function recipientEmails(db: Db, recipients: Recipient[]): Promise<Map<string, string>> {
  const ids = (type: AccountType) => [...new Set(recipients.filter((r) => r.type === type).map((r) => r.id))];
  const found = new Map<string, string>();
  for (const [type, table] of [['app', users], ['partner', partnerAccounts]] as const) {
    if (!ids(type).length) continue;
    const rows = await db.select({ id: table.id, email: table.email }).from(table).where(and(inArray(table.id, ids(type)), eq(table.status, 'active')));
    for (const row of rows) found.set(`${type}:${row.id}`, row.email);
  }
  return found;
}
