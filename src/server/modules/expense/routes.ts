// Expenses: the generic routes of the shared definition (list, show, create and update with
// receipts, workflow transitions, history, downloads), scoped per account, plus the totals of a
// filtered list and the policy the form shows.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { expenses } from '../../db/schema/hr';
import { registerResource, resourceListWhere } from '../../resources/register';
import { expense, type ExpensePolicy, formatMoney } from '../../../shared/resources/expense';
import { expensePolicySchema, expenseTotalsSchema } from '../../../shared/schemas/expense';
import { dataResponse } from '../../../shared/schemas/responses';
import { getExpenseSetting } from '../setting/expense-setting';
import {
  checkHoldDecider, claimantRefusal, checkReceipts, expenseScope, expenseTotals, isPossibleDuplicate, narrowHoldDecisions,
  savedMessage,
} from './service';
import type { Row } from '../../resources/types';

/** Who may read the form's policy: whoever may file or change a claim, or see them. */
const POLICY_PERMISSION = [expense.permissions.view, expense.permissions.add, expense.permissions.edit].join('|');

export function registerExpenseRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: expense,
    table: expenses,
    scope: ({ app: host, account }) => expenseScope(host, account),
    async beforeCreate(values, input, ctx) {
      // The claimant is whoever files it; the status is the workflow's initial one (the machinery sets it).
      const claim = { ...values, user_id: ctx.account.id } as Row & { user_id: number; expense_date: string; amount: number; currency: string };
      await checkReceipts(ctx.db, claim.amount, (input.receipts as unknown[] | undefined) ?? []);
      return { ...claim, is_possible_duplicate: await isPossibleDuplicate(ctx.db, claim) };
    },
    updateRefusal: (existing, ctx) => claimantRefusal(existing, ctx.account, 'change'),
    deleteRefusal: (existing, ctx) => claimantRefusal(existing, ctx.account, 'delete'),
    async beforeUpdate(values, existing, input, ctx) {
      const claim = { ...existing, ...values } as Row & { id: number; user_id: number; expense_date: string; amount: number; currency: string };
      await checkReceipts(ctx.db, claim.amount, (input.receipts as unknown[] | undefined) ?? (existing.receipts as unknown[] | undefined) ?? []);
      return { ...values, is_possible_duplicate: await isPossibleDuplicate(ctx.db, claim) };
    },
    async beforeTransition(transition, existing, _comment, ctx) {
      await checkHoldDecider(ctx.db, transition, existing, ctx.account);
      return {};
    },
    decorate: (rows, ctx) => narrowHoldDecisions(ctx.db, rows, ctx.account),
    // The trail reads an amount as the screens do, with its currency ("EUR 9,000.00").
    auditText: (key, row) => (key === 'amount' && row.amount !== null ? formatMoney(Number(row.amount), String(row.currency)) : undefined),
    messages: { created: savedMessage('created'), updated: savedMessage('updated') },
  });

  // Sums of the list as filtered (same query parameters, same scope), per currency and per status.
  app.get('/expense/totals', {
    config: { auth: 'app', permission: expense.permissions.view },
    schema: { tags: [expense.label], summary: 'Totals of the filtered expenses per currency and per status', querystring: expense.listQuerySchema,
      response: { 200: dataResponse(expenseTotalsSchema) } },
  }, async (request) => ({ data: await expenseTotals(parent.db, resourceListWhere(expense.name, request)) }));

  app.get('/expense/policy', {
    config: { auth: 'app', permission: POLICY_PERMISSION },
    schema: { tags: [expense.label], summary: 'The expense policy the form shows (receipt threshold)', response: { 200: dataResponse(expensePolicySchema) } },
  }, async (): Promise<{ data: ExpensePolicy }> => ({ data: await getExpenseSetting(parent.db) }));
}
