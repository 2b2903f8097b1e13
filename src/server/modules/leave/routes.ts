// Leave types and leave applications from their definitions (the workflow, notifications and reminders
// come with the leave application's), plus its balance and team-calendar reads. Holidays: modules/holiday.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { leaveApplications, leaveTypes } from '../../db/schema/hr';
import { requireAccount } from '../../plugins/auth';
import { registerResource } from '../../resources/register';
import {
  LEAVE_APPROVE_PERMISSION, leaveApplication, leaveBackFillOptionsQuerySchema, leaveBalanceQuerySchema, leaveCalendarQuerySchema,
} from '../../../shared/resources/leave-application';
import { leaveType } from '../../../shared/resources/leave-type';
import {
  backFillOptions, decisionColumns, leaveApplicationScope, leaveBalance, leaveCalendar, prepareLeaveApplication,
  prepareLeaveApplicationUpdate,
} from './service';
import { thisMonth } from '../../../shared/dates';

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
    },
  }, async (request) => ({ data: await leaveBalance(parent.db, requireAccount(request), request.query) }));

  app.get('/leave-application/back-fill-options', {
    // The decider names the back-fill person when approving (issue 24), so the approver may read the choices too.
    config: { auth: 'app', permission: [leaveApplication.permissions.add, leaveApplication.permissions.edit, LEAVE_APPROVE_PERMISSION].join('|') },
    schema: { tags: [leaveApplication.label], summary: 'People who may cover an applicant, for the back-fill select', querystring: leaveBackFillOptionsQuerySchema },
  }, async (request) => ({ data: await backFillOptions(parent.db, requireAccount(request), request.query) }));

  app.get('/leave-application/calendar', {
    config: { auth: 'app', permission: leaveApplication.permissions.view },
    schema: { tags: [leaveApplication.label], summary: 'Who is away on each day of a month', querystring: leaveCalendarQuerySchema },
  }, async (request) => ({
    data: await leaveCalendar(parent.db, requireAccount(request), request.query.month ?? thisMonth()),
  }));
}
