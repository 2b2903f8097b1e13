// Expenses beside the generic screens (issue 9): amounts with their currency and the possible
// duplicate flag in the list and on the detail page, the totals of the filtered list under the
// title, and the receipt threshold above the form. Lives beside the role form because the resource
// screen may not import another feature (eslint import-direction).

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryClient, queryKeys } from '../../lib/query';
import { expense, expenseWorkflow, formatMoney, type ExpensePolicy } from '../../../shared/resources/expense';
import { workflowState } from '../../../shared/resources/define';
import type { ExpenseTotals } from '../../../shared/schemas/expense';
import { api } from '../../lib/api';
import { Badge } from '../../ui/badge';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { ResourceForm, type ResourceFormProps } from '../../ui/resources/resource-form';
import { listQueryToParams, useListQuery, type Row } from '../../ui/resources/use-resource-query';


const money = (row: Row) => (typeof row.amount === 'number' && typeof row.currency === 'string' ? formatMoney(row.amount, row.currency) : String(row.amount ?? ''));

function DuplicateBadge() {
  return (
    <Badge tone="amber" className="gap-1">
      <Icon name="alert" className="size-3.5" aria-hidden="true" />Possible duplicate
    </Badge>
  );
}

/** The amount with its currency; a claim that looks like a duplicate says so right under it. */
export function ExpenseAmount({ row }: { row: Row }) {
  return (
    // Block lines in an inline block follow the cell's alignment: right in the list, left on the detail page.
    <span className="inline-block">
      <span className="block font-medium whitespace-nowrap tabular-nums">{money(row)}</span>
      {row.is_possible_duplicate === true && <span className="mt-1 block"><DuplicateBadge /></span>}
    </span>
  );
}

export function ExpenseDuplicateFlag({ row }: { row: Row }) {
  if (row.is_possible_duplicate !== true) return <span className="text-slate-500 dark:text-slate-400">No</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <DuplicateBadge />
      <span className="text-slate-600 dark:text-slate-300">{expense.fields.is_possible_duplicate.help}</span>
    </span>
  );
}

const totalsFrame = 'mb-3 flex flex-col gap-2 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300';

/**
 * While the totals load: their card with a bar per line (the amounts, 24 px; the status badges, 20 px),
 * as tall as the totals of one currency, so the list below keeps its place when they come. A blank
 * box there read as a gap. Several currencies on a phone wrap to a second line; that one line moves.
 */
function ExpenseTotalsLoading() {
  return (
    <div className={totalsFrame} role="status" aria-label="Loading the totals">
      <Skeleton className="h-6 w-44" />
      <Skeleton className="h-5 w-64 max-w-full" />
    </div>
  );
}

/**
 * Totals of the list as filtered now (same query as the list, same scope), per currency and per
 * status, in a card above the list.
 */
export function ExpenseTotalsSummary() {
  const { query } = useListQuery(expense);
  const params = listQueryToParams({ ...query, page: 1 });
  delete params.page;
  delete params.per_page;
  delete params.sort;
  delete params.direction;
  // A summary of the expenses: a write to an expense (or a live event about one) refetches it.
  const { data: totals = null } = useQuery({
    queryKey: queryKeys.summary('expense', 'totals', params),
    queryFn: ({ signal }): Promise<ExpenseTotals> => api.get<{ data: ExpenseTotals }>('/expense/totals', { params, silent: true, signal }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
  }, queryClient);

  if (!totals) return <ExpenseTotalsLoading />;
  if (totals.count === 0) return null;
  return (
    <section className={totalsFrame} aria-label="Totals of the listed expenses">
      <span className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        {totals.by_currency.map((total) => (
          <span key={total.currency} className="inline-flex items-baseline gap-1.5">
            <strong className="text-base font-semibold text-slate-900 tabular-nums dark:text-white">{formatMoney(total.amount, total.currency)}</strong>
            <span className="text-xs">{total.count === 1 ? '1 claim' : `${total.count} claims`}</span>
          </span>
        ))}
      </span>
      <span className="flex flex-wrap gap-1.5">
        {totals.by_status.map((total) => {
          const state = workflowState(expenseWorkflow, total.status);
          const amounts = total.amounts.map((a) => formatMoney(a.amount, a.currency)).join(' + ');
          return (
            <Badge key={total.status} tone={state.tone} className="gap-1">
              <span>{state.label}</span>
              {/* Several currencies run past a phone's width: the amounts wrap inside the badge (the page never scrolls sideways). */}
              <span className="tabular-nums whitespace-normal opacity-80">{total.count} · {amounts}</span>
            </Badge>
          );
        })}
      </span>
    </section>
  );
}

/** The generic form, with the receipt rule above it (the threshold finance keeps in settings). */
export function ExpenseForm(props: ResourceFormProps) {
  // A failure shows no hint: the rule is still enforced by the server; the hint is a courtesy.
  const { data: policy = null } = useQuery({
    queryKey: queryKeys.summary('expense', 'policy'),
    queryFn: ({ signal }): Promise<ExpensePolicy> => api.get<{ data: ExpensePolicy }>('/expense/policy', { silent: true, signal }).then((answer) => answer.data),
  }, queryClient);
  return (
    <>
      {policy && (
        <p className="mx-5 mt-5 flex items-start gap-2 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-900 ring-1 ring-inset ring-indigo-200 dark:bg-indigo-500/10 dark:text-indigo-200 dark:ring-indigo-500/30">
          <Icon name="file" className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            Claims above <strong className="tabular-nums">{policy.receipt_threshold.toLocaleString('en', { maximumFractionDigits: 2 })}</strong> (in
            any currency) need at least one receipt.
          </span>
        </p>
      )}
      {props.row && props.row.status !== expenseWorkflow.initial && (
        // Issue 20: the server sends an edited claim back to the manager; say so before saving.
        <p className="mx-5 mt-5 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-sm text-amber-900 ring-1 ring-inset ring-amber-200 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-500/30">
          <Icon name="alert" className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>This claim has already been decided on. Saving your changes sends it back to your manager, who decides it again.</span>
        </p>
      )}
      <ResourceForm {...props} />
    </>
  );
}
