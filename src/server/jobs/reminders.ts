// The daily reminders (ARCHITECTURE "Jobs"): for every reminder a registered definition declares,
// the records in one of its states whose date is between today and `daysBefore` days ahead get one
// notification each, once. "Once" is the `reminders_sent` primary key: one set-based statement
// inserts the due records and returns only those it inserted, so a second run, or a second node
// running at the same time, finds nothing left to send. The rest of the work (recipients,
// notifications) happens in the same transaction: a failure rolls the claim back and the next run
// sends them.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { remindersSent } from '../db/schema/workflow';
import { inTransaction, type Transaction } from '../lib/transaction';
import { notifyEach, type NotificationItem, type Recipient } from '../modules/notification/notify';
import { registeredResources, type ResourceOptions } from '../resources/register';
import { pascal, recordUrl } from '../resources/workflow';
import { firmTodaySql } from '../modules/setting/time-zone';
import { resolveRecipients, withDelegates } from '../resources/workflow-recipients';
import type { ReminderDefinition, ResourceDefinition } from '../../shared/resources/define';

export interface ReminderRun { resource: string; reminder: string; sent: number }

/** Sends every due reminder of `resources` once; one transaction per reminder. */
export async function sendDueReminders(app: FastifyInstance, resources: readonly ResourceOptions[] = registeredResources(app)): Promise<ReminderRun[]> {
  const runs: ReminderRun[] = [];
  for (const resource of resources) {
    for (const reminder of resource.definition.reminders ?? []) {
      const sent = await inTransaction(app, (tx) => sendReminder(tx, resource, reminder));
      runs.push({ resource: resource.definition.name, reminder: reminder.name, sent });
    }
  }
  return runs;
}

interface DueRecord { id: number; owner_id: number | null; title: string | null; date: string }

async function sendReminder(tx: Transaction, resource: ResourceOptions, reminder: ReminderDefinition): Promise<number> {
  const { definition } = resource;
  const workflow = definition.workflow;
  if (!workflow) throw new Error(`${definition.name}: reminder ${reminder.name} needs a workflow (its status and owner fields)`);
  if (!reminder.states.length) return 0;
  const record = sql.identifier('record');
  const columns = getTableColumns(resource.table) as Record<string, PgColumn>;
  const column = (key: string) => {
    if (!columns[key]) throw new Error(`${definition.name}: reminder ${reminder.name} names ${key}, which is not a column`);
    return sql`${record}.${sql.identifier(columns[key].name)}`;
  };
  const date = column(reminder.dateField);
  const title = titleOf(tx.app, definition, column);
  const result = await tx.db.execute(sql`
    with sent as (
      insert into ${remindersSent} (resource, reminder, record_id)
      select ${definition.name}::text, ${reminder.name}::text, ${record}."id"
      from ${sql.identifier(getTableConfig(resource.table).name)} ${record}
      where ${date} >= ${firmTodaySql} and ${date} < ${firmTodaySql} + ${reminder.daysBefore + 1}::int
        and ${column(workflow.field)} in (${sql.join(reminder.states.map((state) => sql`${state}::text`), sql`, `)})
      -- In id order, so two nodes inserting at once take the rows' locks in the same order (no deadlock).
      order by ${record}."id"
      on conflict do nothing
      returning record_id
    )
    select ${record}."id" as id, ${column(workflow.ownerField)} as owner_id, (${title.value})::text as title,
      to_char(${date}, 'YYYY-MM-DD') as date
    from sent join ${sql.identifier(getTableConfig(resource.table).name)} ${record} on ${record}."id" = sent.record_id
    ${title.join}`);
  const records = (result as unknown as { rows: DueRecord[] }).rows;
  if (!records.length) return 0;

  const owners = records.flatMap((row) => (row.owner_id === null ? [] : [row.owner_id]));
  // The manager's delegate in force is reminded too (issue 28): the item waits for them as much.
  const recipientsOf = await resolveRecipients(tx.db, withDelegates(reminder.recipients, definition.owner?.account), owners, definition.owner?.account);
  // A record without an owner reaches only those the permission rules name.
  const permissionRules = reminder.recipients.filter((rule) => rule.startsWith('permission:'));
  const ownerless: Recipient[] = owners.length < records.length && permissionRules.length
    ? (await resolveRecipients(tx.db, permissionRules, [0])).get(0) ?? [] : [];
  // Staff and partner logins (of a partner-owned record) each open it in their own area.
  const items: NotificationItem[] = records.flatMap((row) => {
    const recipients = row.owner_id === null ? ownerless : recipientsOf.get(row.owner_id) ?? [];
    return (['app', 'partner'] as const).map((area) => ({
      recipients: recipients.filter((r) => r.type === area),
      content: {
        title: reminder.title,
        message: reminder.message.replaceAll('{title}', row.title ?? '').replaceAll('{date}', row.date),
        url: recordUrl(definition, row.id, area),
      },
    })).filter((item) => item.recipients.length);
  });
  await notifyEach(tx, items, { type: `App\\Notifications\\${pascal(definition.name)}${pascal(reminder.name)}Reminder`, kind: definition.name });
  tx.app.log.info({ resource: definition.name, reminder: reminder.name, records: records.length }, 'reminders sent');
  return records.length;
}

/**
 * The record's title as its screens show it: the title field, or, when that field is a reference
 * (the applicant), the referenced record's label.
 */
function titleOf(app: FastifyInstance, definition: ResourceDefinition, column: (key: string) => SQL): { value: SQL; join: SQL } {
  const reference = definition.fields[definition.titleKey]?.reference;
  const target = reference && registeredResources(app).find((other) => other.definition.name === reference.resource);
  const labelColumn = target && (getTableColumns(target.table) as Record<string, PgColumn>)[reference.labelKey];
  if (!target || !labelColumn) return { value: column(definition.titleKey), join: sql`` };
  const referenced = sql.identifier('title_record');
  return {
    value: sql`${referenced}.${sql.identifier(labelColumn.name)}`,
    join: sql`left join ${sql.identifier(getTableConfig(target.table).name)} ${referenced} on ${referenced}."id" = ${column(definition.titleKey)}`,
  };
}

/** The record's show page, else its list (spec §2 route table). */
