// One declarative definition per resource (CONVENTIONS): the server registers list / show /
// create / update / delete / export / options routes from it, the client renders the list, the
// form and the detail page from it. Isomorphic: zod only.
import { z } from 'zod';
import { asSubject, chosenOneRefused, inSentence, oneOfChosenRefused, withArticle } from '../words';

/** How a field is edited. `reference` is a searchable select fed by `GET /api/{resource}/options`. */
export type FieldInput =
  | 'text' | 'email' | 'number' | 'date' | 'textarea' | 'boolean'
  /** HTML from the rich-text editor; the server keeps only an allowlist of tags (src/server/lib/rich-text.ts). */
  | 'richtext'
  | 'select' | 'multiselect' | 'reference'
  /** A variable list of short texts (a question's options). */
  | 'list'
  /** Attached files (`file` settings below); not part of the JSON schema, sent as multipart. */
  | 'file';

export interface SelectOption { value: string | number; label: string }

/** Badge colours of spec §4 "Approval status colours" (plus gray for anything unnamed). */
export type BadgeTone = 'green' | 'yellow' | 'red' | 'gray';

export interface ReferenceDefinition {
  /** The referenced resource's name; its options come from `GET /api/{resource}/options?search=`. */
  resource: string;
  /** The referenced record's field shown as its label (also the `label` of its options). */
  labelKey: string;
  /**
   * Key of the serialised row holding the referenced record as `{id, [labelKey]}`
   * (`country_id` -> `country`); an array of them for a multiselect.
   */
  relation: string;
  /** Narrows the options by another field of the same form: `{country_id: 'country_id'}` sends `?country_id=<form value>`. */
  dependsOn?: Record<string, string>;
}

export interface FieldDefinition {
  label: string;
  input: FieldInput;
  /** Fixed choices of a select / multiselect. */
  options?: readonly SelectOption[];
  /** A select whose choices are the values of another (list) field of the form: the correct answer among the options. */
  optionsFrom?: string;
  /** Foreign key (`reference`) or many of them (`multiselect`). */
  reference?: ReferenceDefinition;
  /**
   * An amount of money in the currency held in this other field of the same row (issue 21): an
   * export writes it with two decimals and its currency beside it.
   */
  currencyField?: string;
  /**
   * A new record's form starts with this firm setting (issue 22): 'firm-currency' is the default
   * currency of the firm profile, a real value the person may change, not a placeholder.
   */
  initialFrom?: 'firm-currency';
  /**
   * A new record's form starts with this real default (issue 24: Payment Terms starts at 30 days),
   * sent like any typed value. A `placeholder` is only ever a hint ("e.g. …"), never a value.
   */
  initial?: string | number;
  /** Shown as a list column (in field order). */
  isColumn?: boolean;
  /** The list can be sorted by it (`sort=<key>`). */
  isSortable?: boolean;
  /** Part of the form (default: when the key is in the schema). Display-only fields set false. */
  isInForm?: boolean;
  /** Shown on the detail page (default true). */
  isInDetail?: boolean;
  /** Rendered as a badge: true for the spec's colours (statusTone), or an explicit map for other vocabularies. */
  badge?: true | Readonly<Record<string, BadgeTone>>;
  placeholder?: string;
  help?: string;
  /** `input: 'file'`: what may be attached. */
  file?: FileFieldDefinition;
}

/** A file field (ARCHITECTURE "Files"): checked by extension and by the content's first bytes. */
export interface FileFieldDefinition {
  /** Lower-case extensions without the dot: ['pdf', 'png']. */
  extensions: readonly string[];
  maxBytes: number;
  /** Many files (receipts) or one (a CV). */
  isMultiple?: boolean;
  /** How many files at most when multiple. */
  maxFiles?: number;
}

/** An attached file as rows carry it (`{field: [AttachmentSummary]}`). */
export interface AttachmentSummary { id: number; name: string; size: number; mime: string }

// ---- Workflows (ARCHITECTURE "Workflows, files, notifications, ...") ----

export interface WorkflowState {
  label: string;
  tone: BadgeTone;
  /** Nothing more happens to the record (approved, rejected). */
  isFinal?: boolean;
  /** The record's current step as people say it: 'Waiting for the manager'. */
  step?: string;
  /** The same said to the record's owner on their home (issue 28): 'Waits for your manager'. */
  waitsFor?: string;
}

/**
 * Guards are named server functions (src/server/resources/workflow-guards.ts):
 *  notOwnRecord       the actor is not the record's owner;
 *  ownRecord          the actor is the record's owner;
 *  managerOfOwner     the actor is the owner's manager (parent_id) or an admin.
 */
export type WorkflowGuard = 'notOwnRecord' | 'ownRecord' | 'managerOfOwner';

/**
 * Whom a transition or reminder tells (server: src/server/resources/workflow-recipients.ts):
 *  owner           the record's owner: the user of `ownerField`, or for a partner-owned definition
 *                  (`owner`) every active login of the partner firm;
 *  ownerManager    the owner's manager (parent_id);
 *  permission:X    every active account holding permission X (finance: 'permission:can-review-expense').
 */
export type RecipientRule = 'owner' | 'ownerManager' | `permission:${string}`;

/** The state the record was in before it entered its current one (resuming from on hold). */
export const PREVIOUS_STATE = '$previous';

// ---- Words (issue 24): every sentence a workflow shows or sends is declared whole, never assembled
// from a status label, a resource label and a name. docs/sentences.md shows them all with sample records.

/** What a sentence about one event knows: the record as served (references under their relations), who acted, what they wrote. */
export interface EventFacts { record: Readonly<Record<string, unknown>>; actor: string; comment: string | null }

/** A notification as its reader gets it: the bell, the toast and the email say the same. */
export interface NotificationText { title: string; message: string }

/**
 * Whom an event tells and what each is told, written for that reader ('owner' reads "your claim").
 * The keys are the recipient rules, in order: someone matched by two rules gets the first one's words.
 */
export type NotificationWords = Partial<Record<RecipientRule, (facts: EventFacts) => NotificationText>>;

/** The words of an event that is not a transition (a create, an edit that restarted the record): its history line and whom it tells. */
export interface EventWords {
  /** The history line, past tense, on the record's own page: "Eddie Engineer applied for this leave". */
  history: (actor: string) => string;
  notify?: NotificationWords;
}

export interface TransitionWords extends EventWords {
  /** The confirmation question about this record: "Move Jane Candidate to Interview?" */
  confirm: (record: Readonly<Record<string, unknown>>) => string;
  /** The same for several records at once: "Approve 3 claims?" */
  confirmMany: (count: number) => string;
  /** What the one who did it to several records is told: "You approved 3 claims." (the bulk toast). */
  doneMany: (count: number) => string;
  /** The button or menu item where it names something of the record ("Reopen at Interview"); else the label. */
  button?: (record: Readonly<Record<string, unknown>>) => string;
  /**
   * Decision 063: said beside the state on the record's page while the record stays where this step
   * left it, so that whoever gets it back reads at once why and who decided: "Rejected by Maria
   * Manager: Receipt missing." (`withReason`). Every transition that asks for a comment declares one.
   */
  note?: (facts: NoteFacts) => string;
}

/** What a note beside the state knows: who decided ("Dora Delegate on behalf of Maria Manager") and what they wrote. */
export interface NoteFacts { actor: string; comment: string | null }

/**
 * A note's words and the comment as its writer typed it, ended once: "Rejected by Maria Manager:
 * Receipt missing."; without a comment the words alone: "Withdrawn by Eddie Engineer."
 */
export function withReason(lead: string, comment: string | null): string {
  const reason = comment?.trim();
  if (!reason) return `${lead}.`;
  return `${lead}: ${/[.!?…]["”’)]?$/.test(reason) ? reason : `${reason}.`}`;
}

/** A transition's button for this record: its declared `words.button`, else its label. */
export function transitionButton(workflow: WorkflowDefinition | undefined, transition: { name: string; label: string }, record: Readonly<Record<string, unknown>>): string {
  return workflow?.transitions.find((t) => t.name === transition.name)?.words.button?.(record) ?? transition.label;
}

/** " Maria Manager wrote: “Receipt missing.”" or nothing: the comment given with a step, quoted for its reader. */
export const theirComment = ({ actor, comment }: EventFacts) => (comment ? ` ${actor} wrote: “${comment}”` : '');

/** "Eddie Engineer's", "Acme Partners'". */
export const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

/** "1 claim", "3 claims". */
export const countOf = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export interface TransitionDefinition {
  name: string;
  label: string;
  from: readonly string[];
  /** A state, or PREVIOUS_STATE. */
  to: string;
  permission: string;
  guards?: readonly WorkflowGuard[];
  comment: 'required' | 'optional' | 'none';
  /** Its confirmation question, history line and notifications (whom it tells: the keys of `words.notify`). */
  words: TransitionWords;
  /** Also mail those told unless they chose otherwise (a decision someone waits for). */
  isMailed?: boolean;
  /** Button emphasis: 'danger' for rejections. */
  tone?: 'primary' | 'danger' | 'neutral';
  /**
   * Fields of the record the transition's dialog asks for and writes with the move (issue 24: approving
   * leave as "back fill arranged" names the back-fill person). Data, not words: each is a field of
   * the definition, checked by its schema; the dialog starts from the record's current value.
   */
  fields?: readonly TransitionField[];
  /**
   * Issue 26: a self-service step (withdrawing one's own leave, marking one's task done) that waits in the
   * outbox offline. The words are how the outbox lists it for the person who did it, from the record as
   * served: "Your leave application for 24–29 December 2026, to withdraw". Decisions declare none.
   */
  offline?: (record: Readonly<Record<string, unknown>>) => string;
}

/** A record field a transition asks for (`TransitionDefinition.fields`). */
export interface TransitionField {
  key: string;
  /** The dialog's label when the field's own would not say it (issue 28: "New last day" for to_date). */
  label?: string;
  isRequired?: boolean;
  help?: string;
  /** A reference's choices from this GET path, with query parameters taken from the row (`{ user_id: 'user_id' }`). */
  options?: { path: string; rowParams?: Readonly<Record<string, string>> };
}

export interface WorkflowDefinition {
  /** The status column. */
  field: string;
  /** Where a created record starts. */
  initial: string;
  states: Readonly<Record<string, WorkflowState>>;
  transitions: readonly TransitionDefinition[];
  /** The column naming the user a record belongs to (applicant, claimant, engineer). */
  ownerField: string;
  /**
   * The words of what happens besides transitions, by the name its history entry carries:
   *  create   a record made (whom it tells: the applicant's manager);
   *  edit     issue 20: a decision is never changed behind the decider's back. An edit in one of the
   *           definition's `editableStates` other than `initial` returns the record to `initial` (the
   *           first decider decides again), writes an `edit` history entry and tells whom these words name;
   *  others   a module's own steps (a partner's resubmission, a payment recorded).
   */
  events: { create: EventWords; edit?: EventWords } & Readonly<Record<string, EventWords>>;
  /** Also mail those told of a create. */
  isCreateMailed?: boolean;
  /** The states are not anyone's decision (a contract's dates and renewal): an edit keeps them. */
  isStateKeptOnEdit?: boolean;
}

/**
 * What the caller may do with a served row (issue 23), beside its `available_transitions`: the
 * server computes it by the rules its update and delete routes refuse with (docs/resources.md
 * "Abilities"), so the screens offer Edit and Delete only where they would succeed.
 */
export interface RowAbilities { update: boolean; delete: boolean }

/** A row's abilities; a row without them (a page cached before they existed) offers neither. */
export function abilitiesOf(row: Record<string, unknown> | null | undefined): RowAbilities {
  const abilities = row?.abilities as Partial<RowAbilities> | undefined;
  return { update: abilities?.update === true, delete: abilities?.delete === true };
}

/** A transition the caller may make on a row (`available_transitions`). */
/** A transition's comment as the dialog sends it: required when the transition says so (the server's own check). */
export const transitionCommentSchema = (isRequired: boolean) => z.object({
  comment: isRequired ? z.string().trim().min(1, 'The comment field is required.') : z.string(),
});

export interface AvailableTransition { name: string; label: string; requires_comment: boolean; tone?: 'primary' | 'danger' | 'neutral' }

/** A history entry of `GET /api/{resource}/{id}/history`. */
export interface HistoryEntry {
  transition: string;
  from: string | null;
  to: string;
  actor: { id: number; name: string } | null;
  comment: string | null;
  created_at: string;
  /** A decision a manager's delegate made for them (decision 036): that manager. */
  on_behalf_of?: { id: number; name: string };
}

/**
 * A reminder sent once per record by the daily job: while the record is in one of `states` and its
 * `dateField` is at most `daysBefore` days ahead (and not past).
 */
export interface ReminderDefinition {
  name: string;
  dateField: string;
  daysBefore: number;
  states: readonly string[];
  recipients: readonly RecipientRule[];
  title: string;
  /** `{title}` is the record's title, `{date}` the date field's value. */
  message: string;
}

/**
 * List filters, sent as query parameters:
 *  select / reference / boolean: `?{key}=value`
 *  date-range:                   `?{key}_from=YYYY-MM-DD&{key}_to=YYYY-MM-DD` (both inclusive)
 *  text:                         `?{key}=value`, the whole value, whatever its case
 */
export type FilterDefinition =
  | { key: string; label: string; type: 'select'; options: readonly SelectOption[] }
  | { key: string; label: string; type: 'reference'; reference: Omit<ReferenceDefinition, 'relation'> }
  | { key: string; label: string; type: 'boolean' }
  | { key: string; label: string; type: 'date-range' }
  /** A free-text value matched whole, case-insensitively (`?department=engineering`). */
  | { key: string; label: string; type: 'text' };

/**
 * Records that belong to a partner firm (ARCHITECTURE "Ownership"). The definition is then also
 * served under `/api/partner/{segment}` to partner accounts: every query there is scoped to the
 * caller's firm, and the owner column is set from the account, never from the body.
 */
export interface OwnerDefinition {
  account: 'partner';
  /** The column naming the owning firm (partners.id). */
  column: string;
  /** The segment of the partner route of spec §2: `pre-billing`, `invoice`. */
  segment: string;
  /** What partner accounts may do there (their role's permissions); no `add`: they cannot create. */
  permissions: ResourcePermissions;
  /** Route names of the partner screens (partner.invoice.index ...); none when partners only pick from it (their engineers). */
  routes?: ResourceRoutes;
  /** The workflow's states in the partner's words (what happens next from their side), over the staff labels. */
  states?: Readonly<Record<string, Partial<WorkflowState>>>;
}

export interface ResourcePermissions {
  view: string;
  /** Missing: the resource cannot be created through its generic routes (e.g. active-user). */
  add?: string;
  edit?: string;
  delete?: string;
}

/** Route names of src/shared/routes.ts. A missing create / edit route means the form opens in a dialog. */
export interface ResourceRoutes { index: string; create?: string; show?: string; edit?: string }

type Shape = z.ZodRawShape;

/**
 * Where a definition's sidebar entry goes: its icon (the client's icon set), the group it joins (one of
 * `menuGroups` in shared/menu.ts, else the top level) and its `order` there (ascending, as Filament's
 * navigation sort; none puts it after the ordered entries, before Setting). `label` and `permission`
 * replace the definition's own where the sidebar says it otherwise (spec §2).
 */
export interface MenuPlacement { icon: string; group?: string; order?: number; label?: string; permission?: string }

export interface ResourceInput<S extends Shape> {
  /** The API segment (`/api/{name}`) and the key other definitions reference it by. */
  name: string;
  label: string;
  pluralLabel: string;
  /**
   * What one record (and several) is called in a sentence about choosing it, where the label is a word
   * of the screens rather than of speech: a user is chosen as a "person" ("The person you chose has been
   * removed…", src/shared/words.ts). Default: the labels, as they read inside a sentence.
   */
  noun?: { one: string; many: string };
  /**
   * What the generic screens call one record in their actions, where the label is a screen's word that
   * reads oddly inside one ("Add Own Document", "Delete own document?"): `{ record: 'document' }` gives
   * "Add a document", "Create document", "Delete this document?" (with `records` for the plural). Each
   * action may be named outright.
   * Default: the label as it reads in a sentence (`actionWords`).
   */
  actions?: Partial<ActionWords>;
  /**
   * What the generic write routes answer after a create, an update or a delete (the toast), where
   * "Own document created successfully." is not what its reader should hear: said to whoever saved it,
   * with what happens next ("The leave application for 2 days is sent to the manager, …"). Each is a
   * sentence or the sentence of the saved row (the deleted row, for `deleted`). Default: `saveWords`.
   */
  words?: Partial<Record<keyof SaveWords, string | SaveSentence>>;
  /** The create schema; updates use `updateSchema` (derived). No defaults or refinements: `.partial()` must stay exact. */
  schema: z.ZodObject<S>;
  /** Form and column order; keys are the API's snake_case field names. */
  fields: Record<string, FieldDefinition>;
  /**
   * The list screen's columns, most useful first, where field order (the form's and the CSV export's)
   * would leave them scrolled out of sight: a laptop (1366 px with the sidebar) shows about 1,050 px of
   * a table. Columns not named follow in field order, except the state column (the workflow's field, a
   * status or a stage): unless named here, it comes third (client ui/resources/resource-list.tsx listColumns).
   */
  listOrder?: readonly string[];
  /** The field shown as the record's title and as the label of its options. */
  titleKey: string;
  /** Fields matched by `?search=` (case-insensitive substring). */
  search: readonly string[];
  filters?: readonly FilterDefinition[];
  defaultSort: { key: string; direction: 'asc' | 'desc' };
  permissions: ResourcePermissions;
  routes: ResourceRoutes;
  /**
   * Its sidebar entry: it opens the index route under the view permission. A resource with its own
   * index route has one (tests/unit/resource-manifest.test.ts).
   */
  menu?: MenuPlacement;
  /** A resource listed under a parent record (questions of a question category): the list is filtered by `field`. */
  parent?: { resource: string; field: string };
  /**
   * Why a record may never be deleted (a built-in role), or null. The server answers a delete with
   * 409 and this message; the screens offer no delete for it.
   */
  deleteRefusal?: (row: Record<string, unknown>) => string | null;
  /**
   * Issue 20: only an admin creates, edits or deletes these records (admin accounts), whatever
   * permissions others hold; the server refuses them and the screens offer them no such action.
   */
  isWrittenByAdminOnly?: boolean;
  /** States and transitions of the status field; rows then carry `available_transitions`. */
  workflow?: WorkflowDefinition;
  /** Reminders the daily job sends (once per record). */
  reminders?: readonly ReminderDefinition[];
  /** Fields a record may be edited in only while its status is one of these (expense: pending, on hold). */
  editableStates?: readonly string[];
  /** Records belong to a partner firm and are also served to its logins under `/api/partner/{segment}`. */
  owner?: OwnerDefinition;
  /**
   * Lists of other resources whose `field` points at this record, shown below it on its detail page
   * (a partner's logins, a client's positions): the other resource's list filtered by `?{field}={id}`
   * (its `parent` field or a reference filter), adding in a dialog with `field` preset.
   */
  related?: readonly RelatedList[];
  /** Issue 22: records may be added in bulk from a CSV or XLSX file (docs/resources.md "Importer"). */
  importer?: ImporterDefinition;
  /** Issue 26: what people do on their own records of this resource that waits in the outbox offline. */
  offline?: OfflineDefinition;
  /**
   * Issue 25: the dashboards read this resource's records (src/shared/dashboard.ts derives DASHBOARD_COUNTS:
   * a write to it refreshes the dashboard). `keptBy`: the columns its kept counts group by (decision 028,
   * modules/dashboard/kept-counts.ts), the state first, then those its list's scope reads.
   */
  dashboard?: { keptBy?: readonly string[] };
  /**
   * Issue 25: its write routes change who may do what (roles, permissions, account types, status or
   * another account's credentials): the grant walk of tests/api/grants.test.ts walks them.
   */
  grantsAccess?: boolean;
}

/**
 * Issue 26 (docs/decisions/033-offline-declared-on-definitions.md): what of a resource waits in the outbox
 * when the network is down, each with the words the outbox lists it by, written for the person who did it.
 * Saves and actions read the values as typed (references as ids); a delete reads the record as served.
 */
export interface OfflineDefinition {
  /** Create and edit (with their files) queue: "Your leave application for 24–29 December 2026". */
  saves?: { create: (values: Readonly<Record<string, unknown>>) => string; edit: (values: Readonly<Record<string, unknown>>) => string };
  /** Delete queues (withdrawing one's own claim): "Your expense claim “Taxi”, to withdraw". */
  deletes?: (record: Readonly<Record<string, unknown>>) => string;
  /** Resources whose choices a queued form picks from beyond its reference fields, kept while online. */
  options?: readonly string[];
  /** Other GET paths (under /api, with their query) a queued form reads, kept while online: the leave balance. */
  reads?: readonly string[];
  /** A screen's own sends beside saves and transitions (a comment, a returned copy), by name, with their words. */
  actions?: Readonly<Record<string, (values: Readonly<Record<string, unknown>>) => string>>;
}

/**
 * A column of an import file: its heading (the template's) and the field it fills. The value is read
 * as the field's input reads it: a reference or multiselect by the referenced record's label (or
 * `matchBy`), a select by its label or value, a date as YYYY-MM-DD, a list separated by `;`.
 */
export interface ImportColumn {
  header: string;
  field: string;
  /** The referenced record's column the file names it by, instead of its labelKey: a manager by `email`. */
  matchBy?: string;
}

export interface ImporterDefinition {
  /** The file's columns, in the template's order. */
  columns: readonly ImportColumn[];
  /** Values of schema fields the file does not carry (a new record's status). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The template's example row, by heading. */
  example: Readonly<Record<string, string>>;
}

/** What separates several values in one cell (roles, a question's options). */
export const IMPORT_LIST_SEPARATOR = ';';
/** The most rows one file may hold. */
export const MAX_IMPORT_ROWS = 10_000;

export interface RelatedList { resource: string; field: string; title?: string }

export interface ResourceDefinition<S extends Shape = Shape> extends ResourceInput<S> {
  /** PATCH body: every field optional. PUT and POST validate with `schema`. */
  updateSchema: z.ZodObject<{ [K in keyof S]: z.ZodOptional<S[K]> }>;
  /** Query of `GET /api/{name}` and of its export: page, per_page, search, sort, direction and the filters. */
  listQuerySchema: z.ZodObject<Shape>;
  /** Field keys shown as list columns, in order. */
  columns: string[];
  /** Field keys the list may be sorted by. */
  sortable: string[];
}

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 15;

export function defineResource<S extends Shape>(input: ResourceInput<S>): ResourceDefinition<S> {
  const keys = Object.keys(input.fields);
  for (const key of [...input.search, input.titleKey, input.defaultSort.key]) {
    if (!keys.includes(key)) throw new Error(`${input.name}: ${key} is not a field`);
  }
  if (input.workflow) checkWorkflow(input.name, input.workflow);
  for (const key of input.listOrder ?? []) {
    if (!input.fields[key]?.isColumn) throw new Error(`${input.name}: listOrder names ${key}, which is not a column`);
  }
  for (const column of input.importer?.columns ?? []) {
    if (!keys.includes(column.field)) throw new Error(`${input.name}: import column ${column.header} fills ${column.field}, which is not a field`);
  }
  // Issue 20: a record that may be edited after a decision must say what the edit does to it: it
  // restarts (the states it may be edited in, `editableStates`), or its states are nobody's decision.
  const isEditable = !!(input.permissions.edit || input.owner?.permissions.edit);
  if (input.workflow && isEditable && !input.editableStates && !input.workflow.isStateKeptOnEdit) {
    throw new Error(`${input.name}: an editable workflow declares editableStates (edits after a decision restart it) or isStateKeptOnEdit`);
  }
  return {
    ...input,
    updateSchema: input.schema.partial() as ResourceDefinition<S>['updateSchema'],
    listQuerySchema: listQuerySchema(input),
    columns: keys.filter((key) => input.fields[key].isColumn),
    sortable: keys.filter((key) => input.fields[key].isSortable),
  };
}

function checkWorkflow(name: string, workflow: WorkflowDefinition) {
  const states = Object.keys(workflow.states);
  if (!states.includes(workflow.initial)) throw new Error(`${name}: initial state ${workflow.initial} is not a state`);
  for (const transition of workflow.transitions) {
    for (const state of [...transition.from, transition.to]) {
      if (state !== PREVIOUS_STATE && !states.includes(state)) throw new Error(`${name}: ${transition.name} names unknown state ${state}`);
    }
    // Decision 063: a step that asks why says why beside the state afterwards.
    if (transition.comment === 'required' && !transition.words.note) throw new Error(`${name}: ${transition.name} asks for a comment, so it declares words.note`);
  }
}

/** Who made an entry without an account: a public form's link (the daily jobs' events name no actor). */
export const PUBLIC_FORM_ACTOR = 'Someone using a public link';

/**
 * A history entry as a sentence: its transition's or event's words with the actor's name ("Maria
 * Manager approved the claim"); an entry whose name the definition no longer declares says only that its state changed.
 */
export function historyLine(workflow: WorkflowDefinition, entry: Pick<HistoryEntry, 'transition' | 'actor' | 'on_behalf_of'>): string {
  const actor = actingAs(entry.actor?.name || PUBLIC_FORM_ACTOR, entry.on_behalf_of?.name);
  const words = workflow.transitions.find((t) => t.name === entry.transition)?.words ?? workflow.events[entry.transition];
  return words ? words.history(actor) : `${actor} changed the status`;
}

/**
 * Who acted, as the history's words take it: a delegate named with the manager they decided for
 * (decision 036), "Maria Manager, on behalf of Mark Manager," approved the leave.
 */
export const actingAs = (actor: string, principal?: string | null) => (principal ? `${actor}, on behalf of ${principal},` : actor);

/**
 * Decision 063: the note beside the record's state from the latest step into it, when that step
 * declares one (a rejection, a hold), or null: an approval, an edit or a module's event says nothing
 * the state does not, and a record that has moved on leaves the old reason in its history.
 */
export function decisionNote(workflow: WorkflowDefinition, status: unknown, entry: Pick<HistoryEntry, 'transition' | 'to' | 'comment'> & {
  actor: { name: string } | null; on_behalf_of?: { name: string } | null;
} | null | undefined): string | null {
  if (!entry || entry.to !== String(status)) return null;
  const note = workflow.transitions.find((t) => t.name === entry.transition)?.words.note;
  if (!note) return null;
  const actor = entry.actor?.name || PUBLIC_FORM_ACTOR;
  return note({ actor: entry.on_behalf_of?.name ? `${actor} on behalf of ${entry.on_behalf_of.name}` : actor, comment: entry.comment });
}

/** The state's label, tone and step; an unknown value reads as itself in gray. */
export function workflowState(workflow: WorkflowDefinition, value: unknown): WorkflowState {
  return workflow.states[String(value)] ?? { label: String(value ?? ''), tone: 'gray' };
}

/** The largest id a PostgreSQL `integer` (serial) holds: a larger one is refused as input, never sent to the database. */
export const MAX_ID = 2_147_483_647;

/** A positive id as it arrives in a query string or path. */
export const idQuery = () => z.coerce.number().int().positive().max(MAX_ID);

/**
 * spec §9 YYYY-MM-DD, and a day that exists (2026-02-30 is refused here, not by the database's cast),
 * in a year PostgreSQL holds: four digits (10000-01-01 is refused by the format) and not 0000 (there
 * is no year 0). Exported for date queries outside a definition (leave balance).
 */
export const calendarDate = (message: string) => z.iso.date({ error: message }).refine((value) => !value.startsWith('0000'), { error: message });

const date = calendarDate('The date must be a real date in the format YYYY-MM-DD.');

function listQuerySchema(input: ResourceInput<Shape>): z.ZodObject<Shape> {
  const shape: Record<string, z.ZodType> = {
    page: z.coerce.number().int().min(1).optional(),
    // Capped at MAX_PER_PAGE by the server rather than refused, as Laravel does.
    per_page: z.coerce.number().int().min(1).optional(),
    search: z.string().max(100).optional(),
    sort: z.string().max(60).optional(),
    direction: z.enum(['asc', 'desc']).optional(),
  };
  for (const filter of input.filters ?? []) {
    if (filter.type === 'date-range') {
      shape[`${filter.key}_from`] = date.optional();
      shape[`${filter.key}_to`] = date.optional();
    } else if (filter.type === 'reference') {
      shape[filter.key] = idQuery().optional();
    } else if (filter.type === 'boolean') {
      shape[filter.key] = z.enum(['true', 'false', '1', '0']).optional();
    } else if (filter.type === 'text') {
      shape[filter.key] = z.string().trim().max(255).optional();
    } else {
      shape[filter.key] = z.enum(filter.options.map((o) => String(o.value)) as [string, ...string[]]).optional();
    }
  }
  if (input.parent) shape[input.parent.field] = idQuery().optional();
  return z.object(shape);
}

// ---- Field schemas with Laravel's messages, shared by the definitions ----

export const requiredText = (label: string, max = 255) =>
  z.string({ error: `The ${label} field is required.` }).trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} field must not be greater than ${max} characters.`);

export const optionalText = (label: string, max = 255) =>
  z.string({ error: `The ${label} field must be a string.` }).trim()
    .max(max, `The ${label} field must not be greater than ${max} characters.`).nullish();

export const emailField = (label = 'email') =>
  z.string({ error: `The ${label} field is required.` }).trim().toLowerCase()
    // An empty address is missing, not malformed (issue 14): `abort` keeps the format message from following it.
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .email(`The ${label} field must be a valid email address.`).max(255, `The ${label} field must not be greater than 255 characters.`);

/**
 * A foreign key: a positive integer (the server checks that the record exists). `noun` is what is chosen
 * ("person", "leave type"), not the field's label: an id that can be no record reads as one that is gone.
 */
export const referenceId = (noun: string) =>
  z.number({ error: `The ${noun} field is required.` }).int().positive(chosenOneRefused(noun)).max(MAX_ID, chosenOneRefused(noun));

export const optionalReferenceId = (noun: string) =>
  z.number({ error: chosenOneRefused(noun) }).int().positive(chosenOneRefused(noun)).max(MAX_ID, chosenOneRefused(noun)).nullish();

/** The generic screens' actions on a resource's records, each written whole (issue 24: nothing glued at the screen). */
export interface ActionWords {
  /** One record as it reads inside these sentences: "document", "BGV check". */
  record: string;
  /** Several, as they read inside a sentence: "12 documents found", "Back to documents". */
  records: string;
  /** The list's button and the add dialog's title: "Add a document". */
  add: string;
  /** The new record's form's submit button (and the form's name): "Create document". */
  create: string;
  /** The edit dialog's title (and the form's name): "Edit document". */
  edit: string;
  /** The question before a record is deleted: "Delete this document?" */
  remove: string;
  /** The empty list's invitation: "Add the first document to see it here." */
  addFirst: string;
}

/** A definition's action words: those it declares, the rest from its `actions.record`, else its label in a sentence. */
export function actionWords(definition: Pick<ResourceInput<Shape>, 'label' | 'pluralLabel' | 'actions'>): ActionWords {
  const record = definition.actions?.record ?? inSentence(definition.label);
  return {
    record,
    records: inSentence(definition.pluralLabel),
    add: `Add ${withArticle(record)}`,
    create: `Create ${record}`,
    edit: `Edit ${record}`,
    remove: `Delete this ${record}?`,
    addFirst: `Add the first ${record} to see it here.`,
    ...definition.actions,
  };
}

/** A save's answer worded from the record as the routes serve it (references under their relations). */
export type SaveSentence = (row: Readonly<Record<string, unknown>>) => string;

/** What the generic write routes answer, per write, each a whole sentence (issue 24). */
export interface SaveWords {
  created: SaveSentence;
  updated: SaveSentence;
  deleted: SaveSentence;
}

/** A definition's save answers: those it declares (`words`), else "Leave type created successfully." and the like. */
export function saveWords(definition: Pick<ResourceInput<Shape>, 'label' | 'words'>): SaveWords {
  const subject = asSubject(definition.label);
  const declared = (key: keyof SaveWords, fallback: string): SaveSentence => {
    const words = definition.words?.[key];
    return typeof words === 'function' ? words : () => words ?? fallback;
  };
  return {
    created: declared('created', `${subject} created successfully.`),
    updated: declared('updated', `${subject} updated successfully.`),
    deleted: declared('deleted', `${subject} deleted successfully.`),
  };
}

/** What a record of this definition is called when it is chosen in a reference field (`noun`, else its labels). */
export function chosenNoun(definition: Pick<ResourceInput<Shape>, 'label' | 'pluralLabel' | 'noun'>): { one: string; many: string } {
  return definition.noun ?? { one: inSentence(definition.label), many: inSentence(definition.pluralLabel) };
}

/** What a reference field answers when what was chosen in it (one, or one of several) cannot be saved. */
export function referenceRefusal(target: Pick<ResourceInput<Shape>, 'label' | 'pluralLabel' | 'noun'>, isSeveral: boolean): string {
  const noun = chosenNoun(target);
  return isSeveral ? oneOfChosenRefused(noun.many) : chosenOneRefused(noun.one);
}

export const dateField = (label: string) =>
  z.string({ error: `The ${label} field is required.` }).pipe(calendarDate(`The ${label} field must be a real date in the format YYYY-MM-DD.`));

// ---- Shared vocabularies ----

/** spec §4 "Active / inactive". */
export const activeStatuses = ['active', 'inactive'] as const;
export const activeStatusOptions: SelectOption[] = [{ value: 'active', label: 'Active' }, { value: 'inactive', label: 'Inactive' }];
export const statusField = () => z.enum(activeStatuses, { error: 'The selected status is invalid.' });

const toneByStatus: Record<string, BadgeTone> = Object.fromEntries([
  ...['pending', 'reviewed by accounting', 'on hold', 'renewal in progress'].map((s) => [s, 'yellow' as const]),
  ...['approved', 'approved by manager', 'active'].map((s) => [s, 'green' as const]),
  ...['reject', 'rejected', 'inactive', 'expired', 'expired new po released'].map((s) => [s, 'red' as const]),
]);

/** spec §4 "Approval status colours"; case-insensitive, gray for anything the spec does not name. */
export function statusTone(value: string | null | undefined): BadgeTone {
  return toneByStatus[String(value ?? '').trim().toLowerCase()] ?? 'gray';
}

/** The badge colour of a field's value: its workflow state's tone, else its `badge` setting. */
export function badgeTone(field: FieldDefinition, value: unknown, workflow?: WorkflowDefinition): BadgeTone {
  if (workflow?.states[String(value)]) return workflow.states[String(value)].tone;
  if (field.badge && field.badge !== true) return field.badge[String(value)] ?? 'gray';
  return statusTone(value == null ? null : String(value));
}

/**
 * Form values (strings, as inputs hold them) -> the typed payload the schema validates:
 * number / reference -> number or null, boolean -> boolean, multiselect -> numbers (reference) or
 * values, select -> the option's own value type, date / text -> trimmed string ('' -> null when optional).
 */
export function formToPayload(definition: Pick<ResourceInput<Shape>, 'fields' | 'schema'>, values: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(definition.fields)) {
    if (field.isInForm === false || !(key in definition.schema.shape) || !(key in values)) continue;
    const value = values[key];
    const isEmpty = value === '' || value === null || value === undefined;
    switch (field.input) {
      case 'number':
      case 'reference':
        payload[key] = isEmpty ? null : Number(value);
        break;
      case 'boolean':
        payload[key] = value === true || value === 'true' || value === '1';
        break;
      case 'multiselect': {
        const list = Array.isArray(value) ? value : isEmpty ? [] : [value];
        payload[key] = field.reference ? list.map(Number) : list.map((v) => matchOption(field, v));
        break;
      }
      case 'list':
        payload[key] = (Array.isArray(value) ? value : []).map((v) => String(v).trim()).filter(Boolean);
        break;
      case 'select':
        payload[key] = isEmpty ? null : matchOption(field, value);
        break;
      default:
        payload[key] = isEmpty ? null : typeof value === 'string' ? value.trim() : value;
    }
  }
  return payload;
}

const matchOption = (field: FieldDefinition, value: unknown) =>
  field.options?.find((o) => String(o.value) === String(value))?.value ?? value;
