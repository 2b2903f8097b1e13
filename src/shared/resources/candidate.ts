import { z } from 'zod';
import type { candidateFormLinkView, createdCandidateFormLink, publicCandidateFormView } from '../schemas/candidate';
import {
  countOf, defineResource, emailField, type EventFacts, type HistoryEntry, PUBLIC_FORM_ACTOR, theirComment, optionalReferenceId, optionalText, PREVIOUS_STATE, referenceId, requiredText,
  type SelectOption, type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { createdAtColumn, createdAtFilter } from './common';
import { EXPENSE_CURRENCIES } from './expense';

/**
 * Candidates (spec §2 /candidate; issue 12): people recruiters put forward for a client position,
 * moved through spec §4's hiring stages by the workflow below. They come from a recruiter's form or
 * from the public candidate form (`/add-candidate-details`), opened by a capability link per position.
 */

/** spec §4 hiring stages in hiring order; Rejected is reachable from each of the first six. */
export const CANDIDATE_STAGES = ['Screening', 'Interview', 'Client Interview', 'Cost Negotiations', 'Background Check', 'Offer Letter Review', 'Onboarding'] as const;
export const REJECTED_STAGE = 'Rejected';
export type CandidateStage = (typeof CANDIDATE_STAGES)[number] | typeof REJECTED_STAGE;
/** The board's columns, in order. */
export const BOARD_STAGES: readonly CandidateStage[] = [...CANDIDATE_STAGES, REJECTED_STAGE];

// spec §4 colours name only "rejected" (red); the stages on the way are neutral and the hire is green.
const states = {
  Screening: { label: 'Screening', tone: 'gray', step: 'The recruiter checks the profile' },
  Interview: { label: 'Interview', tone: 'gray', step: 'Interviews with the firm' },
  'Client Interview': { label: 'Client Interview', tone: 'gray', step: 'Interviews with the client' },
  'Cost Negotiations': { label: 'Cost Negotiations', tone: 'gray', step: 'Agreeing the cost' },
  'Background Check': { label: 'Background Check', tone: 'gray', step: 'Checking the background' },
  'Offer Letter Review': { label: 'Offer Letter Review', tone: 'gray', step: 'The candidate reviews the offer' },
  Onboarding: { label: 'Onboarding', tone: 'green', isFinal: true, step: 'Hired: onboarding' },
  Rejected: { label: 'Rejected', tone: 'red', step: 'Rejected; it can be reopened at the stage it left' },
} as const satisfies WorkflowDefinition['states'];

export const CANDIDATE_EDIT_PERMISSION = 'can-edit-candidate';
const stageSlug = (stage: string) => stage.toLowerCase().replace(/[^a-z0-9]+/g, '-');
/** The transition that moves a candidate from one stage to the next: `move-to-client-interview`. */
export const moveTransitionName = (to: string) => `move-to-${stageSlug(to)}`;
/** The transition that takes a candidate back one stage: `back-to-interview`. */
export const backTransitionName = (to: string) => `back-to-${stageSlug(to)}`;

type Record_ = Readonly<Record<string, unknown>>;
/** "Jane Candidate", and for a recruiter "Jane Candidate (Java Developer)". */
const nameOf = (r: Record_) => String(r.name ?? 'the candidate');
const withPosition = (r: Record_) => {
  const title = (r.position as { title?: string } | null)?.title;
  return title ? `${nameOf(r)} (${title})` : nameOf(r);
};
/** " for Java Developer", or nothing when the position is not known. */
const offerFor = (r: Record_) => {
  const title = (r.position as { title?: string } | null)?.title;
  return title ? ` for ${title}` : '';
};
const candidates = (count: number) => countOf(count, 'candidate', 'candidates');
/** The reopen button on the board names the stage the candidate goes back to (the one they were rejected at). */
const REOPEN_BUTTONS: Readonly<Record<string, string>> = {
  Screening: 'Reopen at Screening', Interview: 'Reopen at Interview', 'Client Interview': 'Reopen at Client Interview',
  'Cost Negotiations': 'Reopen at Cost Negotiations', 'Background Check': 'Reopen at Background Check', 'Offer Letter Review': 'Reopen at Offer Letter Review',
};

/** What the recruiter responsible is told of a move someone else made. */
const toRecruiter = (title: string, sentence: (facts: EventFacts) => string) => (facts: EventFacts) => ({
  title, message: `${sentence(facts)}${theirComment(facts)}`,
});

const transitions: TransitionDefinition[] = [
  ...CANDIDATE_STAGES.slice(1).map((to, index): TransitionDefinition => ({
    name: moveTransitionName(to), label: `Move to ${to}`, from: [CANDIDATE_STAGES[index]], to,
    permission: CANDIDATE_EDIT_PERMISSION, comment: 'optional', tone: 'primary',
    words: to === 'Onboarding'
      ? {
        confirm: (r) => `Hire ${nameOf(r)} and start their onboarding?`, confirmMany: (n) => `Hire ${candidates(n)} and start their onboarding?`, doneMany: (n) => `You hired ${candidates(n)} and started their onboarding.`,
        history: (actor) => `${actor} hired the candidate; onboarding starts`,
        notify: { owner: toRecruiter('Your candidate was hired', (f) => `${f.actor} hired ${withPosition(f.record)}: their onboarding has started.`) },
      }
      : {
        confirm: (r) => `Move ${nameOf(r)} to ${to}?`, confirmMany: (n) => `Move ${candidates(n)} to ${to}?`, doneMany: (n) => `You moved ${candidates(n)} to ${to}.`,
        history: (actor) => `${actor} moved the candidate to ${to}`,
        notify: { owner: toRecruiter(`Your candidate moved to ${to}`, (f) => `${f.actor} moved ${withPosition(f.record)} to ${to}.`) },
      },
  })),
  // Issue 24: a move made too early is undone one stage at a time, with the reason (the comment);
  // not from Onboarding, which is the hire.
  ...CANDIDATE_STAGES.slice(0, -2).map((to, index): TransitionDefinition => ({
    name: backTransitionName(to), label: `Back to ${to}`, from: [CANDIDATE_STAGES[index + 1]], to,
    permission: CANDIDATE_EDIT_PERMISSION, comment: 'required', tone: 'neutral',
    words: {
      confirm: (r) => `Move ${nameOf(r)} back to ${to}?`, confirmMany: (n) => `Move ${candidates(n)} back to ${to}?`, doneMany: (n) => `You moved ${candidates(n)} back to ${to}.`,
      history: (actor) => `${actor} moved the candidate back to ${to}`,
      note: (f) => withReason(`Moved back to ${to} by ${f.actor}`, f.comment),
      notify: { owner: toRecruiter(`Your candidate moved back to ${to}`, (f) => `${f.actor} moved ${withPosition(f.record)} back to ${to}.`) },
    },
  })),
  // A hire (Onboarding) is final; before it a candidate may be turned down at any stage, with the reason.
  { name: 'reject', label: 'Reject', from: CANDIDATE_STAGES.slice(0, -1), to: REJECTED_STAGE, permission: CANDIDATE_EDIT_PERMISSION,
    comment: 'required', tone: 'danger',
    words: {
      confirm: (r) => `Reject ${nameOf(r)}?`, confirmMany: (n) => `Reject ${candidates(n)}?`, doneMany: (n) => `You rejected ${candidates(n)}.`,
      history: (actor) => `${actor} rejected the candidate`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: toRecruiter('Your candidate was rejected', (f) => `${f.actor} rejected ${withPosition(f.record)}.`) },
    } },
  { name: 'reopen', label: 'Reopen', from: [REJECTED_STAGE], to: PREVIOUS_STATE, permission: CANDIDATE_EDIT_PERMISSION,
    comment: 'optional', tone: 'neutral',
    words: {
      button: (r) => REOPEN_BUTTONS[String(r.previous_stage)] ?? 'Reopen',
      confirm: (r) => `Reopen ${nameOf(r)} at the stage they were rejected at?`, confirmMany: (n) => `Reopen ${candidates(n)}?`, doneMany: (n) => `You reopened ${candidates(n)}.`,
      history: (actor) => `${actor} reopened the candidate`,
      notify: { owner: toRecruiter('Your candidate was reopened', (f) => `${f.actor} reopened ${withPosition(f.record)} at the stage they were rejected at.`) },
    } },
];

export const candidateWorkflow: WorkflowDefinition = {
  field: 'stage',
  initial: 'Screening',
  // The recruiter responsible is told of moves others make.
  ownerField: 'recruiter_id',
  states,
  transitions,
  // Stages say where the hiring stands, not that someone approved what the record says: correcting
  // a candidate's details keeps the stage (issue 20).
  isStateKeptOnEdit: true,
  events: {
    // A candidate who applied through the public form has no actor: the history says so.
    create: { history: (actor) => (actor === PUBLIC_FORM_ACTOR ? 'The candidate applied through the candidate form' : `${actor} added the candidate`) },
    // Issue 28: the candidate answers the offer letter through its link (no account: the words name them).
    'offer-accepted': {
      history: () => 'The candidate accepted the offer letter; onboarding starts',
      notify: { owner: (f) => ({ title: 'Your candidate accepted the offer', message: `${nameOf(f.record)} accepted the offer letter${offerFor(f.record)}: their onboarding has started.` }) },
    },
    'offer-declined': {
      history: () => 'The candidate declined the offer letter',
      notify: { owner: (f) => ({ title: 'Your candidate declined the offer', message: `${nameOf(f.record)} declined the offer letter${offerFor(f.record)}.${f.comment ? ` They wrote: “${f.comment}”` : ''}` }) },
    },
  },
};

/** Where a transition takes this candidate: its stage, or for a reopen the stage it was rejected at. */
export function transitionTarget(name: string, row: Readonly<Record<string, unknown>>): string | null {
  const transition = transitions.find((t) => t.name === name);
  if (!transition) return null;
  if (transition.to !== PREVIOUS_STATE) return transition.to;
  return typeof row.previous_stage === 'string' ? row.previous_stage : CANDIDATE_STAGES[0];
}

/** Time spent in each stage, from the workflow history (oldest first); the current stage runs until `now`. */
export interface StageTime { stage: string; ms: number; visits: number; isCurrent: boolean }
export function stageTimes(history: readonly Pick<HistoryEntry, 'to' | 'created_at'>[], now: Date = new Date()): StageTime[] {
  const byStage = new Map<string, StageTime>();
  history.forEach((entry, index) => {
    const start = new Date(entry.created_at).getTime();
    const next = history[index + 1];
    const end = next ? new Date(next.created_at).getTime() : now.getTime();
    const time = byStage.get(entry.to) ?? { stage: entry.to, ms: 0, visits: 0, isCurrent: false };
    time.ms += Math.max(0, end - start);
    time.visits += 1;
    time.isCurrent = !next;
    byStage.set(entry.to, time);
  });
  const last = history.at(-1)?.to;
  for (const time of byStage.values()) time.isCurrent = time.stage === last;
  return BOARD_STAGES.flatMap((stage) => (byStage.has(stage) ? [byStage.get(stage)!] : []));
}

/** "3 d 4 h", "5 h 20 min", "12 min", "under a minute". */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return hours ? `${days} d ${hours} h` : `${days} d`;
  const rest = minutes % 60;
  if (hours) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${minutes} min`;
}

// ---- Vocabularies of spec §4 / §9 ----

export const SKILL_LEVELS: SelectOption[] = [{ value: 1, label: 'Beginner' }, { value: 2, label: 'Intermediate' }, { value: 3, label: 'Advanced' }];
export const GRADE_GROUPS = ['B0', 'B1', 'B2', 'B3'] as const;
export const COST_RATINGS = ['0', '1', '2', '3', '4', '5', '5+'] as const;
export const WORK_STATUSES = ['At (Location)', 'Resigned', 'On Notice Period'] as const;
export const CANDIDATE_SOURCE_FORM = 'Candidate form';

export const CV_EXTENSIONS = ['pdf', 'doc', 'docx'] as const;
export const CV_MAX_BYTES = 5 * 1024 * 1024;

const options = (values: readonly string[]): SelectOption[] => values.map((value) => ({ value, label: value }));
const stageOptions: SelectOption[] = BOARD_STAGES.map((value) => ({ value, label: value }));
const currencyOptions = options(EXPENSE_CURRENCIES);

const years = (label: string) => z.number({ error: `The ${label} must be a number of years.` })
  .min(0, `The ${label} must be at least 0.`).max(60, `The ${label} must not be greater than 60 years.`)
  .refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-6, `The ${label} may have at most 1 decimal.`).nullish();
const cost = (label: string) => z.number({ error: `The ${label} must be a number.` })
  .min(0, `The ${label} must be at least 0.`).max(9_999_999_999.99, `The ${label} is too large.`).nullish();

/** Digits with spaces, dashes, dots, brackets and a leading +; 6 to 15 digits (E.164's limit). */
const phone = z.string({ error: 'The phone field is required.' }).trim()
  .min(1, { error: 'The phone field is required.', abort: true })
  .max(30, 'The phone field must not be greater than 30 characters.')
  .regex(/^\+?[0-9][0-9 ().-]*$/, 'The phone field must be a valid phone number.')
  .refine((value) => { const digits = value.replace(/\D/g, '').length; return digits >= 6 && digits <= 15; }, 'The phone field must be a valid phone number.');

/** What a candidate tells about themselves: the recruiter's form and the public form share it. */
const candidateOwnFields = {
  name: requiredText('name'),
  email: emailField(),
  phone,
  current_company: optionalText('current company'),
  total_experience: years('total experience'),
  relevant_experience: years('relevant experience'),
  skills: optionalText('skills', 1000),
  currency: z.enum(EXPENSE_CURRENCIES, { error: 'The selected currency is invalid.' }).nullish(),
  current_cost: cost('current cost'),
  expected_cost: cost('expected cost'),
  notice_period_days: z.number({ error: 'The notice period must be a number of days.' }).int('The notice period must be a whole number of days.')
    .min(0, 'The notice period must be at least 0.').max(365, 'The notice period must not be greater than 365 days.').nullish(),
  work_status: z.enum(WORK_STATUSES, { error: 'The selected work status is invalid.' }).nullish(),
};

/** The public candidate form's fields (the CV is its file part, `cv`). */
export const publicCandidateSchema = z.object(candidateOwnFields);
export type PublicCandidateInput = z.infer<typeof publicCandidateSchema>;

export const candidate = defineResource({
  name: 'candidate',
  dashboard: { keptBy: ['stage'] },
  label: 'Candidate',
  pluralLabel: 'Candidates',
  schema: z.object({
    ...candidateOwnFields,
    position_id: referenceId('position'),
    skill_level: z.number({ error: 'The selected skill level is invalid.' }).int('The selected skill level is invalid.')
      .min(1, 'The selected skill level is invalid.').max(3, 'The selected skill level is invalid.').nullish(),
    grade_group: z.enum(GRADE_GROUPS, { error: 'The selected grade group is invalid.' }).nullish(),
    cost_rating: z.enum(COST_RATINGS, { error: 'The selected cost rating is invalid.' }).nullish(),
    country_id: optionalReferenceId('country'),
    city_id: optionalReferenceId('city'),
    source: optionalText('source', 100),
    notes: optionalText('notes', 5000),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    email: { label: 'Email', input: 'email', isColumn: true, isSortable: true },
    phone: { label: 'Phone', input: 'text', placeholder: 'e.g. +91 98765 43210' },
    position_id: {
      label: 'Position', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'position', labelKey: 'title', relation: 'position' },
    },
    stage: { label: 'Stage', input: 'select', options: stageOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    recruiter_id: {
      label: 'Recruiter', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'recruiter' },
    },
    current_company: { label: 'Current company', input: 'text' },
    total_experience: { label: 'Total experience (years)', input: 'number' },
    relevant_experience: { label: 'Relevant experience (years)', input: 'number' },
    skills: { label: 'Skills', input: 'textarea', placeholder: 'e.g. Java, Spring, AWS' },
    skill_level: { label: 'Skill level', input: 'select', options: SKILL_LEVELS },
    grade_group: { label: 'Grade group', input: 'select', options: options(GRADE_GROUPS) },
    currency: { label: 'Currency', input: 'select', options: currencyOptions, help: 'Of the current and expected cost.', initialFrom: 'firm-currency' },
    current_cost: { label: 'Current cost', input: 'number', currencyField: 'currency' },
    expected_cost: { label: 'Expected cost', input: 'number', currencyField: 'currency' },
    cost_rating: { label: 'Cost rating', input: 'select', options: options(COST_RATINGS) },
    notice_period_days: { label: 'Notice period (days)', input: 'number', placeholder: 'e.g. 30' },
    work_status: { label: 'Work status', input: 'select', options: options(WORK_STATUSES) },
    country_id: {
      label: 'Country', input: 'reference',
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    city_id: {
      label: 'City', input: 'reference',
      reference: { resource: 'city', labelKey: 'name', relation: 'city', dependsOn: { country_id: 'country_id' } },
    },
    source: { label: 'Source', input: 'text', placeholder: 'e.g. LinkedIn, referral' },
    cv: { label: 'CV', input: 'file', file: { extensions: CV_EXTENSIONS, maxBytes: CV_MAX_BYTES } },
    notes: { label: 'Notes', input: 'textarea' },
    // Issue 24: set by the public form when the candidate agrees that the firm keeps their details.
    data_consent_at: { label: 'Consent to keep data', input: 'date', isInForm: false, help: 'When the candidate agreed on the candidate form; empty when a recruiter entered the details.' },
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name', 'email', 'phone', 'skills'],
  filters: [
    { key: 'stage', label: 'Stage', type: 'select', options: stageOptions },
    { key: 'position_id', label: 'Position', type: 'reference', reference: { resource: 'position', labelKey: 'title' } },
    { key: 'recruiter_id', label: 'Recruiter', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'skill_level', label: 'Skill level', type: 'select', options: SKILL_LEVELS },
    { key: 'grade_group', label: 'Grade group', type: 'select', options: options(GRADE_GROUPS) },
    { key: 'work_status', label: 'Work status', type: 'select', options: options(WORK_STATUSES) },
    createdAtFilter,
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: 'can-view-candidate', add: 'can-add-candidate', edit: CANDIDATE_EDIT_PERMISSION, delete: 'can-delete-candidate' },
  routes: { index: 'candidate.index', create: 'candidate.create', show: 'candidate.show', edit: 'candidate.edit' },
  menu: { icon: 'user', group: 'Candidate', order: 10 },
  workflow: candidateWorkflow,
  // Issue 13: a candidate in the Background Check stage shows their check.
  related: [
    { resource: 'bgv-check', field: 'candidate_id', title: 'Background check' },
    // Issue 28: the interviews of the Interview and Client Interview stages.
    { resource: 'interview', field: 'candidate_id', title: 'Interviews' },
  ],
});

// ---- Public candidate form links (capability links of purpose 'candidate-form') ----

export const CANDIDATE_FORM_PURPOSE = 'candidate-form';
export const FORM_LINK_EXPIRY_DAYS = [1, 3, 7, 14, 30, 60, 90] as const;

/**
 * A recruiter's link for a position. One candidate per link by default (sent to one person, then
 * spent); "any number" suits a job posting, each submission still checked for duplicates.
 */
export const candidateFormLinkSchema = z.object({
  position_id: referenceId('position'),
  expires_in_days: z.number({ error: 'The expiry field is required.' }).int('The selected expiry is invalid.')
    .min(1, 'The selected expiry is invalid.').max(90, 'The link may last at most 90 days.'),
  is_single_use: z.boolean({ error: 'The single use field must be true or false.' }),
});
export type CandidateFormLinkInput = z.infer<typeof candidateFormLinkSchema>;

/** A link as the recruiter's list shows it (the token itself is only shown once, on creation). */
export type CandidateFormLink = z.infer<typeof candidateFormLinkView>;

/**
 * What the public form shows of the position: its title and place, never the client (issue 24:
 * anyone with the link reads it, and the firm does not name its clients to the public).
 */
export type PublicCandidateForm = z.infer<typeof publicCandidateFormView>;
export type CreatedCandidateFormLink = z.infer<typeof createdCandidateFormLink>;

/**
 * The consent the public form asks for (issue 24), beside the spec's candidate fields: sent as
 * `candidate[data_consent]`, required, and kept as the time it was given (`data_consent_at`).
 */
export const DATA_CONSENT_FIELD = 'data_consent';
export const DATA_CONSENT_TEXT = 'I agree that the firm keeps my details and CV to consider me for this and other positions, for up to two years or until I ask for them to be deleted.';
export const DATA_CONSENT_REQUIRED = 'Please agree that we keep your details, or we cannot consider your application.';

/** The page a link opens: `/add-candidate-details?token=…`. */
export const candidateFormPath = (token: string) => `/add-candidate-details?token=${encodeURIComponent(token)}`;
