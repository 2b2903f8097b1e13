// Expenses: the generic routes of the shared definition (list, show, create and update with
// receipts, workflow transitions, history, downloads), scoped per account, plus the totals of a
// filtered list and the policy the form shows.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { expenses } from '../../db/schema/hr';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { expense, formatMoney } from '../../../shared/resources/expense';
import { expensePolicySchema, expenseTotalsSchema } from '../../../shared/schemas/expense';
import { dataResponse } from '../../../shared/schemas/responses';
import {
  checkHoldDecider, claimantRefusal, expensePolicy, expenseScope, expenseTotals, narrowHoldDecisions, prepareExpense, prepareExpenseUpdate,
} from './service';

/** Who may read the form's policy: whoever may file or change a claim, or see them. */
const POLICY_PERMISSION = [expense.permissions.view, expense.permissions.add, expense.permissions.edit].join('|');

export function registerExpenseRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: expense,
    table: expenses,
    scope: expenseScope,
    beforeCreate: (values, input, ctx) => prepareExpense(ctx, values, input),
    updateRefusal: (existing, ctx) => claimantRefusal(ctx, existing, 'change'),
    deleteRefusal: (existing, ctx) => claimantRefusal(ctx, existing, 'delete'),
    beforeUpdate: (values, existing, input, ctx) => prepareExpenseUpdate(ctx, values, existing, input),
    beforeTransition: (transition, existing, _comment, ctx) => checkHoldDecider(ctx, transition, existing),
    decorate: (rows, ctx) => narrowHoldDecisions(ctx, rows),
    // The trail reads an amount as the screens do, with its currency ("EUR 9,000.00").
    auditText: (key, row) => (key === 'amount' && row.amount !== null ? formatMoney(Number(row.amount), String(row.currency)) : undefined),
  });

  // Sums of the list as filtered (same query parameters, same scope), per currency and per status.
  app.get('/expense/totals', {
    config: { auth: 'app', permission: expense.permissions.view },
    schema: { tags: [expense.label], summary: 'Totals of the filtered expenses per currency and per status', querystring: expense.listQuerySchema,
      response: { 200: dataResponse(expenseTotalsSchema) } },
  }, async (request) => ({ data: await expenseTotals(contextOf(request)) }));

  app.get('/expense/policy', {
    config: { auth: 'app', permission: POLICY_PERMISSION },
    schema: { tags: [expense.label], summary: 'The expense policy the form shows (receipt threshold)', response: { 200: dataResponse(expensePolicySchema) } },
  }, async (request) => ({ data: await expensePolicy(contextOf(request)) }));
}
