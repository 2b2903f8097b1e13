// Timed online assessments (issue 12): the recruiter's send form and the candidate's answer, checked
// by the same schema in the browser and on the server.
import { z } from 'zod';
import { timestamp } from './responses';

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

const person = z.object({ id: z.number().int(), name: z.string() });
const candidateSummary = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
/** Questions per skill level, keyed by spec §4 skill level: 1 Beginner, 2 Intermediate, 3 Advanced. */
const perLevel = z.record(z.enum(['1', '2', '3']), z.number().int());
const attemptStatus = z.enum(['in progress', 'submitted']);
const closedReason = z.enum(['submitted', 'time-up']).nullable();

/** What the candidate's pages see of an attempt: never the correct answers. */
export const attemptStateSchema = z.object({
  status: attemptStatus,
  closed_reason: closedReason,
  candidate_name: z.string(),
  started_at: timestamp,
  deadline: timestamp,
  submitted_at: timestamp.nullable(),
  /** The server's clock when it answered, so the page counts down from the server's time, not its own. */
  server_time: timestamp,
  remaining_ms: z.number().int(),
  duration_minutes: z.number().int(),
  tab_leaves: z.number().int(),
  questions: z.array(z.object({
    id: z.number().int(), position: z.number().int(), question: z.string(), options: z.array(z.string()), category: z.string(),
    skill_level: z.number().int(), answer: z.string().nullable(),
  })),
});
export type AttemptState = z.infer<typeof attemptStateSchema>;

/** GET /api/public/assessment/{token}: the start page (starts nothing). */
export const assessmentLinkInfoSchema = z.object({
  candidate_name: z.string(),
  duration_minutes: z.number().int(),
  question_count: z.number().int(),
  categories: z.array(z.string()),
  expires_at: timestamp,
});
export type AssessmentLinkInfo = z.infer<typeof assessmentLinkInfoSchema>;

/** POST /api/public/assessment/{token}/start: the attempt, and the window's own link (its token shown once). */
export const startedAttemptSchema = attemptStateSchema.extend({ token: z.string(), url: z.string() });
export type StartedAttempt = z.infer<typeof startedAttemptSchema>;

/** PUT /api/public/assessment-attempt/{token}/answers/{questionId}. */
export const savedAnswerSchema = z.object({ question_id: z.number().int(), answer: z.string().nullable(), saved_at: timestamp });

/** POST /api/public/assessment-attempt/{token}/tab-leave: the count so far. */
export const tabLeavesSchema = z.object({ tab_leaves: z.number().int() });

/** GET /api/candidate/{id}/send-assessment-link: the candidate and each active category's questions per level. */
export const sendAssessmentFormSchema = z.object({
  candidate: candidateSummary,
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), questions_per_level: perLevel })),
});
export type SendAssessmentForm = z.infer<typeof sendAssessmentFormSchema>;

/** POST /api/candidate/{id}/send-assessment-link: the send, and its one-use link (mailed, shown once). */
export const sentAssessmentSchema = z.object({ id: z.number().int(), url: z.string() });
export type SentAssessment = z.infer<typeof sentAssessmentSchema>;

const scoreLine = z.object({ correct: z.number().int(), total: z.number().int() });
export const attemptScoresSchema = z.object({
  overall: scoreLine.extend({ percent: z.number() }),
  by_category: z.array(scoreLine.extend({ question_category_id: z.number().int(), name: z.string() })),
  by_skill_level: z.array(scoreLine.extend({ skill_level: z.number().int(), label: z.string() })),
});

/** A send as the recruiter's results page shows it: its link's state and its attempt, scored, with each answer. */
export const assessmentResultSchema = z.object({
  id: z.number().int(),
  categories: z.array(z.object({ id: z.number().int(), name: z.string() })),
  questions_per_level: perLevel,
  duration_minutes: z.number().int(),
  link_expires_at: timestamp,
  link_status: z.enum(['unused', 'used', 'expired', 'revoked']),
  sent_by: person.nullable(),
  created_at: timestamp,
  attempt: z.object({
    id: z.number().int(),
    status: attemptStatus,
    closed_reason: closedReason,
    started_at: timestamp,
    deadline: timestamp,
    submitted_at: timestamp.nullable(),
    time_taken_seconds: z.number().int().nullable(),
    tab_leaves: z.number().int(),
    question_count: z.number().int(),
    answered_count: z.number().int(),
    scores: attemptScoresSchema,
    questions: z.array(z.object({
      question_id: z.number().int(), position: z.number().int(), question: z.string(), options: z.array(z.string()), category: z.string(),
      skill_level: z.number().int(), answer: z.string().nullable(), correct_answer: z.string(), is_correct: z.boolean(), answered_at: timestamp.nullable(),
    })),
  }).nullable(),
});
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;

/** GET /api/candidate/{id}/assessments: every send, newest first; `candidate` names them. */
export const candidateAssessmentsSchema = z.object({ candidate: candidateSummary, data: z.array(assessmentResultSchema) });
export type CandidateAssessments = z.infer<typeof candidateAssessmentsSchema>;
