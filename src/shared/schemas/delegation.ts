// Approvals while away (issue 28, decision 036): the shapes of /api/delegation.
import { z } from 'zod';
import { dateField } from '../resources/define';

const person = z.object({ id: z.number().int(), name: z.string() });

/** What a manager asks for: who decides for them, from which day to which (both included). */
export const delegationInputSchema = z.object({
  delegate_id: z.number({ error: 'Choose the manager who decides for you.' }).int().positive(),
  starts_on: dateField('first day'),
  ends_on: dateField('last day'),
  note: z.string().trim().max(500, 'The note must not be greater than 500 characters.').nullish(),
  /** An admin may set one up for any manager; a manager only for themself. */
  manager_id: z.number().int().positive().nullish(),
});
export type DelegationInput = z.infer<typeof delegationInputSchema>;

export const delegationSchema = z.object({
  id: z.number().int(),
  manager: person,
  delegate: person,
  starts_on: z.string(),
  ends_on: z.string(),
  note: z.string().nullable(),
  /** Today is one of its days. */
  is_in_force: z.boolean(),
  /** The sentence that says it, for the person reading (the manager or the delegate). */
  sentence: z.string(),
  /**
   * Why it has no effect now, for the reader (its manager is inactive or may no longer hand approvals
   * over, or its delegate is inactive); null while it counts.
   */
  no_effect: z.string().nullable(),
});
export type Delegation = z.infer<typeof delegationSchema>;

export const delegationListResponse = z.object({
  data: z.object({
    /** May the caller hand their decisions over (a manager) or set one up for anyone (an admin). */
    can_delegate: z.boolean(),
    /** Theirs handed over, not yet over. */
    given: z.array(delegationSchema),
    /** Handed to them, not yet over. */
    received: z.array(delegationSchema),
    /** For an admin: every other hand-over not yet over, between other managers (empty for anyone else). */
    others: z.array(delegationSchema),
  }),
});
export const delegationSavedResponse = z.object({ data: delegationSchema, message: z.string() });
export const delegationCandidatesResponse = z.object({ data: z.array(z.object({ id: z.number().int(), label: z.string() })) });
