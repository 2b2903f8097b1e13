// Onboardings with their checklists and the templates they are copied from (issue 13): the generic
// routes of the shared definitions, with the hooks of service.ts.
import type { FastifyInstance } from 'fastify';
import { onboardings, onboardingTasks, onboardingTemplates } from '../../db/schema/onboarding';
import { registerResource } from '../../resources/register';
import { onboarding, onboardingTask } from '../../../shared/resources/onboarding';
import { onboardingTemplate } from '../../../shared/resources/onboarding-template';
import { today } from '../../../shared/dates';
import {
  checkPhaseDone, createChecklist, decorateTasks, onboardingComputed, onboardingScope, taskComputed, taskScope, taskTickValues,
} from './service';
import type { Row } from '../../resources/types';

const asRecord = (row: Row) => ({ id: row.id as number, person_name: String(row.person_name), manager_id: row.manager_id as number });

export function registerOnboardingRoutes(app: FastifyInstance) {
  registerResource(app, {
    definition: onboarding,
    table: onboardings,
    scope: ({ account }) => onboardingScope(account),
    computed: onboardingComputed,
    // Without a manager chosen, whoever opens it answers for it.
    beforeCreate: (values, _input, ctx) => ({ ...values, manager_id: values.manager_id ?? ctx.account.id }),
    beforeUpdate: (values) => (values.manager_id === null ? Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'manager_id')) : values),
    afterCreate: async (row, _input, ctx) => { await createChecklist(ctx.tx, asRecord(row), 'onboarding', String(row.start_date), ctx.account); },
    async beforeTransition(transition, existing, _comment, ctx) {
      if (transition.name === 'onboard') await checkPhaseDone(ctx.db, existing.id, 'onboarding');
      if (transition.name === 'offboard') await checkPhaseDone(ctx.db, existing.id, 'offboarding');
      if (transition.name !== 'resign') return {};
      // A resignation starts the offboarding checklist, due counted from today (before the status
      // changes, so the answer's row counts its tasks; a refused change rolls it back).
      await createChecklist(ctx.tx, asRecord(existing), 'offboarding', today(), ctx.account);
      // The last working day is the resignation's, unless one was recorded already.
      return existing.end_date ? {} : { end_date: today() };
    },
  });

  registerResource(app, {
    definition: onboardingTask,
    table: onboardingTasks,
    scope: ({ account }) => taskScope(account),
    computed: taskComputed,
    beforeTransition: (transition, existing, _comment, ctx) => taskTickValues(transition.name, existing, ctx.account),
    decorate: async (rows, ctx) => decorateTasks(rows, ctx.account),
  });

  registerResource(app, { definition: onboardingTemplate, table: onboardingTemplates });
}
