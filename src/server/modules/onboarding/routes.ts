// Onboardings with their checklists and the templates they are copied from (issue 13): the generic
// routes of the shared definitions, with the hooks of service.ts.
import type { FastifyInstance } from 'fastify';
import { onboardings, onboardingTasks, onboardingTemplates } from '../../db/schema/onboarding';
import { registerResource } from '../../resources/register';
import { onboarding, onboardingTask } from '../../../shared/resources/onboarding';
import { onboardingTemplate } from '../../../shared/resources/onboarding-template';
import { onboardingComputed, onboardingScope, taskComputed, taskScope } from './service';
import {
  afterOnboardingCreate, decorateTasks, onboardingStepValues, prepareOnboarding, prepareOnboardingUpdate, taskTickValues,
} from './rules';

export function registerOnboardingRoutes(app: FastifyInstance) {
  registerResource(app, {
    definition: onboarding,
    table: onboardings,
    scope: ({ account }) => onboardingScope(account),
    computed: onboardingComputed,
    beforeCreate: (values, _input, ctx) => prepareOnboarding(ctx, values),
    beforeUpdate: (values) => prepareOnboardingUpdate(values),
    afterCreate: (row, _input, ctx) => afterOnboardingCreate(ctx, row),
    beforeTransition: (transition, existing, _comment, ctx) => onboardingStepValues(ctx, transition, existing),
  });

  registerResource(app, {
    definition: onboardingTask,
    table: onboardingTasks,
    scope: ({ account }) => taskScope(account),
    computed: taskComputed,
    beforeTransition: (transition, existing, _comment, ctx) => taskTickValues(ctx, transition, existing),
    decorate: async (rows, ctx) => decorateTasks(ctx, rows),
  });

  registerResource(app, { definition: onboardingTemplate, table: onboardingTemplates });
}
