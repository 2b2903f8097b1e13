// The engineer's home (issue 28): GET /api/dashboard/mine. Only the caller's own records, each kind
// only when the caller may open its list; a state's words for the owner come from the definitions
// (`waitsFor` on the workflow's states).
import { and, count, desc, eq, gt, or, type SQL, notInArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { documentAssignments } from '../../db/schema/compliance';
import { expenses, leaveApplications } from '../../db/schema/hr';
import { requests } from '../../db/schema/operations';
import { timeSheets } from '../../db/schema/time-sheets';
import type { Account } from '../../plugins/auth';
import { today } from '../../../shared/dates';
import { hasPermission } from '../../../shared/permissions';
import { workflowState } from '../../../shared/resources/define';
import { formatMoney } from '../../../shared/resources/expense';
import { daySpan, dayName, monthName, quoted } from '../../../shared/resources/offline-words';
import { resourceByName } from '../../../shared/resources/registry';
import type { Home, HomeItem } from '../../../shared/schemas/home';
import { leaveBalances } from '../leave/service';

const PER_KIND = 5;
const RECENT_DAYS = 30;

type Source = {
  resource: HomeItem['resource'];
  table: PgTable & { id: PgColumn; status: PgColumn; created_at: PgColumn };
  owner: PgColumn;
  title: (row: Record<string, unknown>) => string;
};

const sources: Source[] = [
  { resource: 'leave-application', table: leaveApplications, owner: leaveApplications.user_id, title: (r) => `Leave on ${daySpan(r.from_date, r.to_date)}` },
  { resource: 'expense', table: expenses, owner: expenses.user_id, title: (r) => `${quoted(r.description, 50)}, ${formatMoney(Number(r.amount), String(r.currency))} on ${dayName(r.expense_date)}` },
  { resource: 'time-sheet', table: timeSheets, owner: timeSheets.user_id, title: (r) => `Time sheet for ${r.period_type === 'month' ? monthName(r.period_start) : `the week of ${dayName(r.period_start)}`}` },
  { resource: 'request', table: requests, owner: requests.created_by, title: (r) => `Request ${quoted(r.title, 60)}` },
];

async function ownItems(db: Db, account: Account, source: Source): Promise<HomeItem[]> {
  const definition = resourceByName[source.resource];
  const workflow = definition.workflow!;
  const finals = Object.entries(workflow.states).filter(([, state]) => state.isFinal).map(([value]) => value);
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000);
  const open: SQL | undefined = finals.length ? notInArray(source.table.status, finals) : undefined;
  const rows = await db.select().from(source.table)
    .where(and(eq(source.owner, account.id), or(open, gt(source.table.created_at, since))))
    .orderBy(desc(source.table.created_at), desc(source.table.id)).limit(PER_KIND) as Record<string, unknown>[];
  return rows.map((row) => {
    const state = workflowState(workflow, row.status);
    return {
      resource: source.resource, id: Number(row.id), title: source.title(row), status: String(row.status), status_label: state.label, tone: state.tone,
      // A final state says what follows only when its definition declares it (an approved claim waits to be paid).
      waits_for: state.waitsFor ?? (state.isFinal ? null : state.step ?? null), created_at: (row.created_at as Date).toISOString(),
    };
  });
}

export async function engineerHome(db: Db, account: Account): Promise<Home> {
  const may = (resource: string) => hasPermission(account.permissions, resourceByName[resource]?.permissions.view ?? '-');
  const year = Number(today().slice(0, 4));
  const [balances, lists, documents] = await Promise.all([
    may('leave-application') ? leaveBalances(db, account.id, year) : null,
    Promise.all(sources.filter((source) => may(source.resource)).map((source) => ownItems(db, account, source))),
    may('document-assign-history')
      ? db.select({ status: documentAssignments.status, count: count() }).from(documentAssignments)
        .where(eq(documentAssignments.user_id, account.id)).groupBy(documentAssignments.status)
      : null,
  ]);
  const countOf = (status: string) => documents?.find((row) => row.status === status)?.count ?? 0;
  return {
    leave_balances: balances ? { year, items: balances } : null,
    items: lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at)),
    documents: documents ? { to_read: countOf('pending'), to_return_again: countOf('rejected') } : null,
  };
}
