// Issue 28: the answers of the interview, scorecard, offer letter and pipeline routes (decision 029).
import { z } from 'zod';

const person = z.object({ id: z.number().int(), name: z.string() });

export const scorecardView = z.object({
  id: z.number().int(),
  interview_id: z.number().int(),
  interviewer: person,
  ratings: z.record(z.string(), z.number().int()),
  strengths: z.string().nullable(),
  concerns: z.string().nullable(),
  recommendation: z.string(),
  submitted_at: z.string(),
});
export type ScorecardView = z.infer<typeof scorecardView>;

/** One interview's scorecards as the caller may see them (an interviewer: only after submitting their own). */
export const interviewScorecards = z.object({
  interview: z.object({
    id: z.number().int(), stage: z.string(), scheduled_on: z.string(), start_time: z.string(), time_zone: z.string(), status: z.string(),
    interviewers: z.array(person),
  }),
  criteria: z.array(z.string()),
  /** The caller is on this interview's panel. */
  is_interviewer: z.boolean(),
  /** The caller may submit now: on the panel, not submitted yet, the interview not cancelled. */
  can_submit: z.boolean(),
  mine: scorecardView.nullable(),
  /** The others' submitted scorecards; null while the caller, an interviewer, has not submitted theirs. */
  scorecards: z.array(scorecardView).nullable(),
  submitted_count: z.number().int(),
});
export type InterviewScorecards = z.infer<typeof interviewScorecards>;
export const scorecardsResponse = z.object({ data: z.array(interviewScorecards) });

export const offerLetterView = z.object({
  id: z.number().int(),
  candidate_id: z.number().int(),
  template: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  start_date: z.string(),
  rate: z.number(),
  currency: z.string(),
  rate_period: z.string(),
  rate_text: z.string(),
  status: z.string(),
  signed_name: z.string().nullable(),
  responded_at: z.string().nullable(),
  responded_ip: z.string().nullable(),
  decline_reason: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_by: person.nullable(),
  created_at: z.string(),
});
export type OfferLetterView = z.infer<typeof offerLetterView>;
/** A new offer: the link to send is shown once (the candidate also gets it by mail). */
export const createdOfferLetter = offerLetterView.extend({ url: z.string() });

/** What the candidate's page shows of their offer. */
export const publicOfferLetter = z.object({
  candidate_name: z.string(),
  position: z.string(),
  client: z.string(),
  start_date: z.string(),
  rate_text: z.string(),
  body: z.string(),
  status: z.string(),
  signed_name: z.string().nullable(),
  responded_at: z.string().nullable(),
  expires_at: z.string(),
  firm: z.string(),
});
export type PublicOfferLetter = z.infer<typeof publicOfferLetter>;

export const positionPipeline = z.object({
  position: z.object({ id: z.number().int(), title: z.string(), status: z.string(), created_at: z.string() }),
  days_open: z.number().int(),
  stages: z.array(z.object({ stage: z.string(), count: z.number().int() })),
  candidates: z.array(z.object({ id: z.number().int(), name: z.string(), stage: z.string(), stage_changed_at: z.string(), days_in_stage: z.number().int() })),
});
export type PositionPipeline = z.infer<typeof positionPipeline>;
