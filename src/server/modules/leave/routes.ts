// Leave types and leave applications from their definitions (the workflow, notifications and reminders
// come with the leave application's), plus its balance and team-calendar reads. Holidays: modules/holiday.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { leaveApplications, leaveTypes } from '../../db/schema/hr';
import { leaveAdjustmentSchema, leaveLedgerQuerySchema } from '../../../shared/resources/leave-ledger';
import { adjustLeave } from './ledger';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import {
  LEAVE_APPROVE_PERMISSION, leaveApplication, leaveBackFillOptionsQuerySchema, leaveBalanceQuerySchema, leaveCalendarQuerySchema,
} from '../../../shared/resources/leave-application';
import { leaveType } from '../../../shared/resources/leave-type';
import {
  backFillOptions, decisionColumns, leaveApplicationScope, leaveBalance, leaveCalendar, prepareLeaveApplication,
  prepareLeaveApplicationUpdate, visibleLeaveLedger,
} from './service';
import { thisMonth } from '../../../shared/dates';
import { leaveBalanceSchema, leaveCalendarSchema, leaveLedgerSchema } from '../../../shared/schemas/leave';
import { dataResponse, optionsResponse, savedResponse } from '../../../shared/schemas/responses';

export function registerLeaveRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  registerResource(parent, { definition: leaveType, table: leaveTypes, unique: ['name'] });
  registerResource(parent, {
    definition: leaveApplication,
    table: leaveApplications,
    scope: ({ app: host, account }) => leaveApplicationScope(host, account),
    beforeCreate: prepareLeaveApplication,
    beforeUpdate: prepareLeaveApplicationUpdate,
    beforeTransition: (transition, existing, _comment, ctx, values) => decisionColumns(transition, ctx, existing, values),
  });

  app.get('/leave-application/balance', {
    config: { auth: 'app', permission: leaveApplication.permissions.view },
    schema: {
      tags: [leaveApplication.label],
      summary: 'Leave balance of one person for one year, per leave type (and the days of a planned request)',
      querystring: leaveBalanceQuerySchema,
      response: { 200: dataResponse(leaveBalanceSchema) },
    },
  }, async (request) => ({ data: await leaveBalance(contextOf(request), request.query) }));

  // Issue 28: each person's ledger, to them, their manager and HR (admins; the same rule as the balance).
  app.get('/leave-application/ledger', {
    config: { auth: 'app', permission: leaveApplication.permissions.view },
    schema: { tags: [leaveApplication.label], summary: 'Leave ledger of one person for one year: accrued, carried, expired, adjusted and taken days per leave type', querystring: leaveLedgerQuerySchema, response: { 200: dataResponse(leaveLedgerSchema) } },
  }, async (request) => ({ data: await visibleLeaveLedger(contextOf(request), request.query) }));

  app.post('/leave-application/ledger/adjustments', {
    config: { auth: 'app', permission: leaveApplication.permissions.view },
    schema: { tags: [leaveApplication.label], summary: 'Adjust one person\'s leave of one type and year, with the reason (admins)', body: leaveAdjustmentSchema, response: { 201: savedResponse(leaveLedgerSchema) } },
  }, async (request, reply) => {
    const ledger = await adjustLeave(contextOf(request), request.body);
    return reply.status(201).send({ data: ledger, message: 'The adjustment was added to the ledger.' });
  });

  app.get('/leave-application/back-fill-options', {
    // The decider names the back-fill person when approving (issue 24), so the approver may read the choices too.
    config: { auth: 'app', permission: [leaveApplication.permissions.add, leaveApplication.permissions.edit, LEAVE_APPROVE_PERMISSION].join('|') },
    schema: { tags: [leaveApplication.label], summary: 'People who may cover an applicant, for the back-fill select', querystring: leaveBackFillOptionsQuerySchema, response: { 200: optionsResponse } },
  }, async (request) => ({ data: await backFillOptions(contextOf(request), request.query) }));

  app.get('/leave-application/calendar', {
    config: { auth: 'app', permission: leaveApplication.permissions.view },
    schema: { tags: [leaveApplication.label], summary: 'Who is away on each day of a month', querystring: leaveCalendarQuerySchema, response: { 200: dataResponse(leaveCalendarSchema) } },
  }, async (request) => ({
    data: await leaveCalendar(contextOf(request), request.query.month ?? thisMonth()),
  }));
}
