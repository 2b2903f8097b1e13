// Onboarding (issue 13): the rules of the definitions' routes (decision 040): who answers for an
// onboarding, the checklists a step starts or needs done, and who may tick a task.
import type { onboardings } from '../../db/schema/onboarding';
import { HttpError } from '../../plugins/errors';
import type { Input, ResourceContext, Row, RowOf, WriteContext } from '../../resources/types';
import type { TransitionDefinition } from '../../../shared/resources/define';
import { today } from '../../../shared/dates';
import { checkPhaseDone, createChecklist, taskDeciderRefusal, taskTiming, TASK_MANAGER_KEY } from './service';

/** Adds the timing and narrows the tick buttons to those who may press them. */
export function decorateTasks(ctx: ResourceContext, rows: Row[]) {
  const on = today();
  for (const row of rows) {
    Object.assign(row, taskTiming(row, on));
    if (taskDeciderRefusal(row, ctx.account)) row.available_transitions = [];
    // Internal: who manages the onboarding, used for the check above.
    Object.defineProperty(row, TASK_MANAGER_KEY, { enumerable: false });
  }
}

/** The columns a tick sets: the completion date on done, none on undone. */
export function taskTickValues(ctx: WriteContext, transition: TransitionDefinition, existing: Row): Input {
  const refusal = taskDeciderRefusal(existing, ctx.account);
  if (refusal) throw new HttpError(403, refusal);
  return { completion_date: transition.name === 'complete' ? today() : null };
}

type OnboardingRow = RowOf<typeof onboardings>;

/** Without a manager chosen, whoever opens it answers for it. */
export const prepareOnboarding = (ctx: WriteContext, values: Input): Input => ({ ...values, manager_id: values.manager_id ?? ctx.account.id });

/** A cleared manager keeps the one it has (an onboarding always has someone answering for it). */
export const prepareOnboardingUpdate = (values: Input): Input =>
  (values.manager_id === null ? Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'manager_id')) : values);

export async function afterOnboardingCreate(ctx: WriteContext, row: OnboardingRow) {
  await createChecklist(ctx.tx, row, 'onboarding', row.start_date, ctx.account);
}

/**
 * Onboarded and offboarded need their phase's checklist done. A resignation starts the offboarding
 * checklist, due counted from today (before the status changes, so the answer's row counts its
 * tasks; a refused change rolls it back), and its last working day, unless one was recorded already.
 */
export async function onboardingStepValues(ctx: WriteContext, transition: TransitionDefinition, existing: OnboardingRow): Promise<Input> {
  if (transition.name === 'onboard') await checkPhaseDone(ctx.db, existing.id, 'onboarding');
  if (transition.name === 'offboard') await checkPhaseDone(ctx.db, existing.id, 'offboarding');
  if (transition.name !== 'resign') return {};
  await createChecklist(ctx.tx, existing, 'offboarding', today(), ctx.account);
  return existing.end_date ? {} : { end_date: today() };
}
