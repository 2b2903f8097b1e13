// Issue 24: every sentence a workflow declares, rendered with sample records into docs/sentences.md,
// so a change of wording shows in review. The test fails when the file is out of date; to rewrite it:
//   UPDATE_SENTENCES=1 npx vitest run --project unit tests/unit/sentences.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEAL_MOVES } from '../../src/shared/resources/deal-tracking';
import { resourceByName, resourceDefinitions } from '../../src/shared/resources/registry';
import { actionWords, referenceRefusal, saveWords, type EventWords, type NotificationWords, type RecipientRule, type ResourceDefinition } from '../../src/shared/resources/define';
import { notEditableRefusal, staleStepRefusal, stepNotPermitted } from '../../src/shared/words';

const FILE = resolve(__dirname, '../../docs/sentences.md');

type Sample = Record<string, unknown>;

/** A record of each definition with a workflow, as the server serves it (references under their relations). */
const samples: Record<string, Sample> = {
  expense: { description: 'Taxi to the client site', amount: 64.5, currency: 'GBP', expense_date: '2026-11-20', user: { id: 7, name: 'Eddie Engineer' } },
  'leave-application': {
    from_date: '2026-12-01', to_date: '2026-12-05', days: 5, user: { id: 7, name: 'Eddie Engineer' }, leave_type: { id: 1, name: 'Annual leave' },
  },
  'time-sheet': { period_start: '2026-11-02', period_end: '2026-11-08', hours: 40, user: { id: 7, name: 'Eddie Engineer' } },
  candidate: { name: 'Jane Candidate', position: { id: 3, title: 'Java Developer' }, previous_stage: 'Interview' },
  interview: { candidate: { id: 5, name: 'Jane Candidate' }, scheduled_on: '2026-12-03', start_time: '14:30' },
  'document-assign-history': { document_title: 'Code of conduct', user: { id: 7, name: 'Eddie Engineer' } },
  request: { title: 'Two desktop engineers for the Pune site' },
  onboarding: { person_name: 'Paul Placed' },
  'onboarding-task': { title: 'Laptop issued' },
  contract: { po_number: 'PO-2026-0042' },
  'pre-billing': { month: '2026-03', total: 7200, currency: 'EUR', version: 2, partner: { id: 2, name: 'Acme Partners' } },
  'partner-invoice': {
    invoice_number: 'INV-2026-014', total: 1440, currency: 'EUR', due_date: '2026-05-31', partner: { id: 2, name: 'Acme Partners' },
  },
};

/** Who acts, per definition and (where another role takes that step) per transition. */
const actors: Record<string, string> = {
  expense: 'Maria Manager', 'expense:review': 'Fiona Finance', 'expense:approve': 'Fiona Finance', 'expense:hold-finance': 'Fiona Finance',
  'expense:reject-finance': 'Fiona Finance', 'expense:resume': 'Fiona Finance', 'expense:reject-on-hold': 'Fiona Finance',
  'expense:create': 'Eddie Engineer', 'expense:edit': 'Eddie Engineer', 'expense:reimburse': 'Fiona Finance',
  'leave-application': 'Maria Manager', 'leave-application:withdraw': 'Eddie Engineer', 'leave-application:create': 'Eddie Engineer',
  'leave-application:cancel': 'Eddie Engineer', 'leave-application:end-early': 'Eddie Engineer',
  'leave-application:end-early-back-fill-arranged': 'Eddie Engineer', 'leave-application:end-early-taken': 'Eddie Engineer',
  'time-sheet': 'Maria Manager', 'time-sheet:create': 'Eddie Engineer', 'time-sheet:withdraw': 'Eddie Engineer',
  candidate: 'Rita Recruiter', interview: 'Rita Recruiter',
  'document-assign-history': 'Hana HR', 'document-assign-history:acknowledge': 'Eddie Engineer',
  request: 'Sam Support', 'request:create': 'Dina Delivery', 'request:reopen': 'Carl Coordinator',
  onboarding: 'Hana HR', 'onboarding-task': 'Hana HR',
  contract: 'Sally Sales',
  'pre-billing': 'Fiona Finance', 'pre-billing:create': 'Pat Partner', 'pre-billing:resubmit': 'Pat Partner',
  'partner-invoice': 'Fiona Finance', 'partner-invoice:approve-manager': 'Adam Account-Manager', 'partner-invoice:create': 'Pat Partner',
  'partner-invoice:resubmit': 'Pat Partner',
};
const actorOf = (definition: string, step: string) => actors[`${definition}:${step}`] ?? actors[definition] ?? 'Someone';

/** Whom 'owner' names where the owner field's label does not say it. */
const owners: Record<string, string> = { 'document-assign-history': 'the person it is assigned to', request: 'the person who raised it' };

/** Whom a recipient rule names, as the file says it. */
function readerOf(rule: RecipientRule, definition: ResourceDefinition): string {
  if (rule === 'owner') return definition.owner ? 'the partner firm\'s logins' : owners[definition.name] ?? `the ${definition.fields[definition.workflow!.ownerField]?.label.toLowerCase() ?? 'owner'}`;
  if (rule === 'ownerManager') return definition.owner ? 'the firm\'s account manager' : 'their manager';
  return `everyone who may ${rule.slice('permission:can-'.length).replaceAll('-', ' ')}`;
}

const COMMENT = 'Please talk to me first.';

function notifications(words: NotificationWords | undefined, definition: ResourceDefinition, record: Sample, actor: string, comment: string | null): string[] {
  return Object.entries(words ?? {}).map(([rule, text]) => {
    const { title, message } = text!({ record, actor, comment });
    return `- Tells ${readerOf(rule as RecipientRule, definition)}: **${title}** ${message}`;
  });
}

function renderEvent(name: string, words: EventWords, definition: ResourceDefinition, record: Sample): string[] {
  const actor = actorOf(definition.name, name);
  return [`### Event \`${name}\``, '', `- History: ${words.history(actor)}`, ...notifications(words.notify, definition, record, actor, null), ''];
}

/** What a screen's own send carries besides the record (issue 26): a comment's text, a file's name. */
const ACTION_VALUES: Sample = { body: COMMENT, file_name: 'scan.pdf' };

/** Issue 26: how the outbox lists what of this definition waits offline (`offline` on the definition). */
function renderOffline(definition: ResourceDefinition, record: Sample): string[] {
  const { offline } = definition;
  if (!offline?.saves && !offline?.deletes && !offline?.actions) return [];
  const lines = ['### Waiting in the outbox (offline)', ''];
  if (offline.saves) lines.push(`- A new one: ${offline.saves.create(record)}`, `- Changes to one: ${offline.saves.edit(record)}`);
  if (offline.deletes) lines.push(`- Withdrawn: ${offline.deletes(record)}`);
  for (const [name, words] of Object.entries(offline.actions ?? {})) lines.push(`- \`${name}\`: ${words({ ...record, ...ACTION_VALUES })}`);
  return [...lines, ''];
}

/**
 * Decision 060: what the server answers when a step, an edit or a choice cannot be made, per state and
 * per reference field, so that a refusal glued from a label ("The selected assign to is invalid.") shows in review.
 */
function renderRefusals(): string[] {
  const lines = ['## Refusals', '', '### A step or an edit the record\'s status no longer allows', ''];
  for (const definition of resourceDefinitions) {
    if (!definition.workflow) continue;
    lines.push(`- ${definition.pluralLabel}`, `  - ${stepNotPermitted(definition.label)}`);
    for (const [name, state] of Object.entries(definition.workflow.states)) {
      lines.push(`  - ${staleStepRefusal(definition.label, state.label)}`);
      if (definition.editableStates && !definition.editableStates.includes(name)) lines.push(`  - ${notEditableRefusal(definition.label, state.label)}`);
    }
  }
  lines.push('', '### A choice that cannot be saved (under the field; each field it is said under)', '');
  const fieldsBySentence = new Map<string, string[]>();
  for (const definition of resourceDefinitions) {
    for (const field of Object.values(definition.fields)) {
      const target = field.reference && resourceDefinitions.find((candidate) => candidate.name === field.reference!.resource);
      if (!target) continue;
      const sentence = referenceRefusal(target, field.input === 'multiselect');
      fieldsBySentence.set(sentence, [...(fieldsBySentence.get(sentence) ?? []), `${field.label} (${definition.pluralLabel})`]);
    }
  }
  for (const [sentence, fields] of fieldsBySentence) lines.push(`- ${sentence} Under: ${fields.join(', ')}.`);
  return [...lines, ''];
}

/**
 * The saved records each definition that words its own save answers (`words`) is shown with: one per
 * way its sentences read (a claim flagged as a possible duplicate, a person whose new address waits).
 */
const savedSamples: Record<string, Sample[]> = {
  document: [{ title: 'Work visa', expiry_date: '2027-03-31' }, { title: 'AWS certification', expiry_date: null }],
  'leave-application': [samples['leave-application'], { ...samples['leave-application'], days: 1 }],
  expense: [{ ...samples.expense, is_possible_duplicate: false }, { ...samples.expense, is_possible_duplicate: true }],
  'pre-billing': [{ ...samples['pre-billing'], version: 1, status: 'pending' }, { ...samples['pre-billing'], status: 'pending' }],
  'partner-invoice': [samples['partner-invoice']],
  'ikk-partner': [{ name: 'Acme Partners', status: 'active' }, { name: 'Acme Partners', status: 'inactive' }],
  'partner-account': [{ name: 'Pat Partner', email: 'pat@acme.example' }],
  ...Object.fromEntries(['admin', 'manager', 'user'].map((type) => [type, [{ name: 'Eddie Engineer', pending_email: null }, { name: 'Eddie Engineer', pending_email: 'eddie@new.example' }]])),
};

/** What the generic write routes answer after a save, where a definition words its own (the rest: "Country created successfully."). */
function renderSaveAnswers(): string[] {
  const lines = ['## What a save answers', '', 'Where a definition declares its own `words`; every other one answers "Country created successfully." and the like.', ''];
  for (const definition of resourceDefinitions) {
    if (!definition.words) continue;
    const rows = savedSamples[definition.name];
    if (!rows) throw new Error(`No saved sample of ${definition.name}: add one to savedSamples in tests/unit/sentences.test.ts`);
    const words = saveWords(definition);
    lines.push(`- ${definition.pluralLabel} (\`${definition.name}\`)`);
    for (const [key, title] of [['created', 'Created'], ['updated', 'Updated'], ['deleted', 'Deleted']] as const) {
      for (const sentence of new Set(rows.map((row) => words[key](row)))) lines.push(`  - ${title}: ${sentence}`);
    }
  }
  return [...lines, ''];
}

/** What the generic list, form and detail screens call their actions on each resource's records. */
function renderActions(): string[] {
  const lines = ['## Actions on the list, form and detail screens', '', 'Add · submit a new one · edit · delete · the empty list · the count.', ''];
  for (const definition of resourceDefinitions) {
    const words = actionWords(definition);
    lines.push(`- ${definition.pluralLabel} (\`${definition.name}\`): ${[words.add, words.create, words.edit, words.remove, words.addFirst, `2 ${words.records} found`].join(' · ')}`);
  }
  return [...lines, ''];
}

export function renderSentences(): string {
  const lines = [
    '# Every sentence of every workflow',
    '',
    'Rendered from the definitions (`words` of each transition, `events` of each workflow) with sample records by',
    '`tests/unit/sentences.test.ts`, which fails when this file is out of date. Rewrite it with',
    '`UPDATE_SENTENCES=1 npx vitest run --project unit tests/unit/sentences.test.ts` and read the change in review.',
    'Transitions whose comment is required are shown with the sample comment “Please talk to me first.”',
    '',
  ];
  for (const definition of resourceDefinitions) {
    const workflow = definition.workflow;
    if (!workflow) continue;
    const record = samples[definition.name];
    if (!record) throw new Error(`No sample record of ${definition.name}: add one to tests/unit/sentences.test.ts`);
    lines.push(`## ${definition.pluralLabel} (\`${definition.name}\`)`, '');
    for (const transition of workflow.transitions) {
      const actor = actorOf(definition.name, transition.name);
      const comment = transition.comment === 'required' ? COMMENT : null;
      const { words } = transition;
      lines.push(
        `### ${transition.label} (\`${transition.name}\`)`, '',
        ...(words.button ? [`- Button: ${words.button(record)}`] : []),
        `- Asks: ${words.confirm(record)}`,
        `- Asks of several: ${words.confirmMany(3)}`,
        `- Tells the one who did it to several: ${words.doneMany(3)}`,
        `- History: ${words.history(actor)}`,
        `- Tells the one who did it: ${words.history('You')}.`,
        ...notifications(words.notify, definition, record, actor, comment),
        ...(words.note ? [`- Beside the state afterwards: ${words.note({ actor, comment })}`] : []),
        ...(transition.offline ? [`- Offline, waits in the outbox as: ${transition.offline(record)}`] : []),
        '',
      );
    }
    lines.push(...renderOffline(definition, record));
    for (const [name, words] of Object.entries(workflow.events)) {
      if (words) lines.push(...renderEvent(name, words, definition, record));
    }
  }
  lines.push(...renderRefusals());
  lines.push(...renderActions());
  lines.push(...renderSaveAnswers());
  lines.push('## Deal board moves (`deal-tracking`)', '', 'Each stage a card may move to: the Move menu\'s item, and what the one who moved it is told.', '');
  for (const [stage, move] of Object.entries(DEAL_MOVES)) lines.push(`- To \`${stage}\`: **${move.button}** ${move.done('Service desk for the Berlin office')}`);
  return `${lines.join('\n').replace(/\u00a0/g, ' ').trimEnd()}\n`;
}

describe('docs/sentences.md', () => {
  it('shows every declared sentence of every definition as it reads now', () => {
    const rendered = renderSentences();
    if (process.env.UPDATE_SENTENCES) writeFileSync(FILE, rendered);
    const stored = (() => { try { return readFileSync(FILE, 'utf8'); } catch { return ''; } })();
    expect(stored, 'docs/sentences.md is out of date: UPDATE_SENTENCES=1 npx vitest run --project unit tests/unit/sentences.test.ts').toBe(rendered);
  });

  it('names every resource\'s actions as a person writes them, not with a label glued in', () => {
    for (const definition of resourceDefinitions) {
      const words = actionWords(definition);
      for (const phrase of [words.add, words.create, words.edit, words.remove, words.addFirst]) {
        // Past its first word, capitals only in acronyms ("Add a BGV check", never "Add Own Document").
        for (const word of phrase.split(' ').slice(1)) expect(word, `${definition.name}: ${phrase}`).toMatch(/^([^A-Z].*|[A-Z]{2,}[a-z]?)$/);
        expect(phrase, definition.name).not.toMatch(/\bown\b/i);
      }
      expect(words.add, definition.name).toMatch(/^Add (a|an) /);
    }
    expect(actionWords(resourceByName.document)).toMatchObject({ add: 'Add a document', create: 'Create document', remove: 'Delete this document?', records: 'documents' });
  });

  it('never assembles a sentence from a state label: no history line or question names a raw status', () => {
    for (const line of renderSentences().split('\n')) {
      expect(line).not.toMatch(/\bundefined\b|\bnull\b|\[object Object\]|NaN/);
      expect(line).not.toMatch(/\(Approve|Approve by|will be /);
    }
  });
});
