// The partner portal's dashboard (issue 11): what waits on the partner, this year's amounts and the
// latest decisions, from GET /api/partner/dashboard.
import { Link } from 'wouter';
import type { PartnerDashboardData } from '../../../shared/schemas/dashboard';
import { formatAmount } from '../../../shared/money';
import { historyLine, workflowState, type WorkflowState } from '../../../shared/resources/define';
import { PARTLY_PAID, PAYMENT_TRANSITION } from '../../../shared/resources/partner-invoice';
import { monthLabel } from '../../../shared/resources/pre-billing';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath } from '../../../shared/routes';
import { formatDateTime } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';

/** GET /api/partner/dashboard as the server declares it (src/shared/schemas/dashboard.ts). */
export type { PartnerDashboardData };

/** Whether the answer is the partner dashboard's (an app dashboard answer is flat figures). */
export const isPartnerDashboard = (data: unknown): data is PartnerDashboardData =>
  !!data && typeof data === 'object' && 'to_correct' in data && 'amounts' in data && 'recent' in data;

/** How the partner knows a record: the statement's month, the invoice's number. */
const recordName = (entry: PartnerDashboardData['recent'][number]) =>
  (entry.resource === 'pre-billing'
    ? `Pre-billing ${entry.title ? monthLabel(entry.title) : `#${entry.record_id}`}`
    : `Invoice ${entry.title ?? `#${entry.record_id}`}`);

const screens = {
  'pre-billing': { label: 'Pre-billing', index: 'partner.pre-billing.index', show: 'partner.pre-billing.show' },
  'partner-invoice': { label: 'Invoice', index: 'partner.invoice.index', show: 'partner.invoice.show' },
} as const;

type Amounts = PartnerDashboardData['amounts'][number];

/**
 * The year's figures in two tables of one kind each (issue 21): before tax, the statements and the
 * invoices that bill them; with tax, the invoices and what was paid of them and is still owed.
 */
const AMOUNT_TABLES: { key: string; title: string; columns: { key: keyof Omit<Amounts, 'currency'>; label: string }[] }[] = [
  { key: 'net', title: 'Before tax (net)', columns: [{ key: 'submitted_net', label: 'Submitted' }, { key: 'approved_net', label: 'Approved' }, { key: 'invoiced_net', label: 'Invoiced' }] },
  { key: 'gross', title: 'Invoices with tax (gross)', columns: [{ key: 'invoiced_gross', label: 'Invoiced' }, { key: 'paid_gross', label: 'Paid' }, { key: 'outstanding_gross', label: 'Outstanding' }] },
];

/** One kind of the year's figures per currency; the row names the currency, the cells are plain figures ("1,200.00"). */
function AmountTable({ table, amounts }: { table: (typeof AMOUNT_TABLES)[number]; amounts: Amounts[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={`partner-amounts-${table.key}`}>
        <caption className="px-5 pt-4 pb-1 text-left text-sm font-medium text-slate-700 dark:text-slate-200">{table.title}</caption>
        <thead className="text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-2 pl-5"><span className="sr-only sm:not-sr-only">Currency</span></th>
            {table.columns.map((column, index) => (
              <th key={column.key} scope="col" className={cx('py-2 text-right', index === table.columns.length - 1 ? 'pr-5 pl-2 sm:pl-5' : 'px-2 sm:px-5')}>{column.label}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 tabular-nums dark:divide-slate-800">
          {amounts.map((row) => (
            <tr key={row.currency} className="text-slate-900 dark:text-slate-100">
              <th scope="row" className="py-3 pr-2 pl-5 text-left font-medium">{row.currency}</th>
              {table.columns.map((column, index) => (
                <td key={column.key} className={cx('py-3 text-right whitespace-nowrap', index === table.columns.length - 1 ? 'pr-5 pl-2 sm:pl-5' : 'px-2 sm:px-5')}>{formatAmount(row[column.key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The entry as a sentence: its definition's declared history words ("Fiona Finance approved the statement"). */
function activityLine(entry: PartnerDashboardData['recent'][number]): string {
  const workflow = resourceByName[entry.resource]?.workflow;
  const actor = entry.actor ? { id: 0, name: entry.actor } : null;
  return workflow ? historyLine(workflow, { transition: entry.transition, actor }) : `${entry.actor ?? 'Someone'} changed the status`;
}

/**
 * A state as the portal names it (`owner.states`), with the workflow's colour. A payment that left
 * the invoice approved left it partly paid, as its own page says ("Partly paid: … received, …
 * outstanding"), not "Approved, awaiting payment" as if nothing had come.
 */
function partnerState(entry: PartnerDashboardData['recent'][number]): Pick<WorkflowState, 'label' | 'tone'> {
  const definition = resourceByName[entry.resource];
  const state = definition?.workflow ? workflowState(definition.workflow, entry.to) : { label: entry.to, tone: 'gray' as const };
  if (entry.resource === 'partner-invoice' && entry.transition === PAYMENT_TRANSITION && entry.to === 'approved') return { tone: state.tone, label: PARTLY_PAID };
  return { tone: state.tone, label: definition?.owner?.states?.[entry.to]?.label ?? state.label };
}

export function PartnerDashboardPanels({ data }: { data: PartnerDashboardData }) {
  const waiting = [
    { key: 'pre-billing' as const, count: data.to_correct.pre_billings, label: 'Pre-billing statements to correct' },
    ...(data.to_correct.invoices === null ? [] : [{ key: 'partner-invoice' as const, count: data.to_correct.invoices, label: 'Invoices to correct' }]),
  ];
  return (
    <div className="mb-6 grid gap-6 lg:grid-cols-3">
      <Card className="min-w-0 lg:col-span-1">
        <CardHeader title="Waiting on you" description="Sent back with a reason: correct and resubmit." />
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="partner-to-correct">
          {waiting.map((item) => (
            <li key={item.key}>
              {/* Nothing to correct is said, not offered as a link to an empty list. */}
              {item.count === 0 ? (
                <p className="flex items-center justify-between gap-3 px-5 py-4 text-sm text-slate-500 dark:text-slate-400">
                  <span>{item.label}</span>
                  <span>None</span>
                </p>
              ) : (
                <Link href={`${routePath(screens[item.key].index)}?status=rejected`}
                  className={cx('flex items-center justify-between gap-3 px-5 py-4 hover:bg-slate-50 dark:hover:bg-slate-800/60', focusRing)}>
                  <span className="text-sm text-slate-700 dark:text-slate-200">{item.label}</span>
                  <span className="flex items-center gap-2">
                    <Badge tone="red">{item.count}</Badge>
                    <Icon name="chevron-right" className="size-4 text-slate-400" />
                  </span>
                </Link>
              )}
            </li>
          ))}
        </ul>
      </Card>

      <Card className="min-w-0 lg:col-span-2">
        <CardHeader title={`Billed in ${data.year}`} description="Statements by their month, invoices by their date. Outstanding: approved invoices not yet paid in full." />
        {data.amounts.length === 0
          ? <p className="px-5 py-6 text-sm text-slate-500 dark:text-slate-400">Nothing billed this year yet. Start with a pre-billing statement for last month.</p>
          : (
            <div className="divide-y divide-slate-200 pb-2 dark:divide-slate-800" data-testid="partner-amounts">
              {AMOUNT_TABLES.map((table) => <AmountTable key={table.key} table={table} amounts={data.amounts} />)}
            </div>
          )}
      </Card>

      <Card className="min-w-0 lg:col-span-3">
        <CardHeader title="Recent activity" />
        {data.recent.length === 0
          ? <p className="px-5 py-6 text-sm text-slate-500 dark:text-slate-400">No activity yet.</p>
          : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="partner-recent">
              {data.recent.map((entry) => {
                const state = partnerState(entry);
                return (
                  <li key={`${entry.resource}-${entry.record_id}-${entry.created_at}`}>
                    <Link href={routePath(screens[entry.resource].show, { id: entry.record_id })}
                      className={cx('flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 hover:bg-slate-50 dark:hover:bg-slate-800/60', focusRing)}>
                      <span className="text-sm font-medium text-slate-900 dark:text-white">{recordName(entry)}</span>
                      <Badge tone={state.tone}>{state.label}</Badge>
                      <span className="text-sm text-slate-500 dark:text-slate-400">
                        {activityLine(entry)}{entry.comment ? `: “${entry.comment}”` : '.'}
                      </span>
                      <time className="ml-auto text-xs text-slate-500 dark:text-slate-400" dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
      </Card>
    </div>
  );
}
