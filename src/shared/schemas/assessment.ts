// Timed online assessments (issue 12): the recruiter's send form and the candidate's answer, checked
// by the same schema in the browser and on the server.
import { z } from 'zod';

/** spec §9: the countdown ticks every second. */
export const COUNTDOWN_INTERVAL_MS = 1000;
/** An answer may arrive this long after the deadline (the network between the click and the server). */
export const ASSESSMENT_GRACE_MS = 5000;
export const MAX_DURATION_MINUTES = 240;
export const MAX_QUESTIONS_PER_LEVEL = 100;
/** A link may be valid for at most this many days. */
export const MAX_LINK_DAYS = 30;

const questionCount = (label: string) => z.number({ error: `The ${label} questions field must be a number.` }).int(`The ${label} questions field must be a whole number.`)
  .min(0, `The ${label} questions field must be at least 0.`)
  .max(MAX_QUESTIONS_PER_LEVEL, `The ${label} questions field must not be greater than ${MAX_QUESTIONS_PER_LEVEL}.`);

export const sendAssessmentSchema = z.object({
  question_category_ids: z.array(z.number().int().positive().max(2147483647), { error: 'Choose at least one question category.' })
    .min(1, 'Choose at least one question category.').max(50, 'Choose at most 50 question categories.'),
  // Keyed by spec §4 skill level: 1 Beginner, 2 Intermediate, 3 Advanced.
  questions_per_level: z.object({ 1: questionCount('Beginner'), 2: questionCount('Intermediate'), 3: questionCount('Advanced') },
    { error: 'The questions per skill level field is required.' }),
  duration_minutes: z.number({ error: 'The duration field is required.' }).int('The duration must be a whole number of minutes.')
    .min(1, 'The duration must be at least 1 minute.').max(MAX_DURATION_MINUTES, `The duration must not be greater than ${MAX_DURATION_MINUTES} minutes.`),
  expires_at: z.iso.datetime({ offset: true, error: 'The link expiry must be a date and time.' }),
});
export type SendAssessmentInput = z.infer<typeof sendAssessmentSchema>;

export const saveAnswerSchema = z.object({
  answer: z.string({ error: 'The answer field must be text.' }).max(500, 'The answer must not be longer than 500 characters.').nullable(),
});

/** What the candidate's pages see of an attempt: never the correct answers. */
export interface AttemptState {
  status: 'in progress' | 'submitted';
  closed_reason: 'submitted' | 'time-up' | null;
  candidate_name: string;
  started_at: string;
  deadline: string;
  submitted_at: string | null;
  /** The server's clock when it answered, so the page counts down from the server's time, not its own. */
  server_time: string;
  remaining_ms: number;
  duration_minutes: number;
  tab_leaves: number;
  questions: { id: number; position: number; question: string; options: string[]; category: string; skill_level: number; answer: string | null }[];
}

export interface AssessmentLinkInfo {
  candidate_name: string;
  duration_minutes: number;
  question_count: number;
  categories: string[];
  expires_at: string;
}
