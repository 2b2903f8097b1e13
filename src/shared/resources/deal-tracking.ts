import { z } from 'zod';
import type { dealPipelineSchema, pipelineAmountSchema } from '../schemas/deal';
import { dateField, defineResource, optionalReferenceId, optionalText, requiredText, type BadgeTone, type SelectOption } from './define';
import { createdAtColumn } from './common';
import { EXPENSE_CURRENCIES, MAX_AMOUNT } from './expense';
import { formatMoney, hasAtMostTwoDecimals } from '../money';

/**
 * Deal tracking (spec §2 /deal-tracking, issue 13): deals with a client moved through the sales
 * stages, each stage with a fixed win probability, so the pipeline can be weighted. A deal may be
 * with a prospect that is not a client yet (issue 22); moving it to Won makes the prospect a client.
 */

export const DEAL_STAGES = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
export type DealStage = (typeof DEAL_STAGES)[number];
/** Still to be decided: the open pipeline. */
export const OPEN_DEAL_STAGES: readonly DealStage[] = ['lead', 'qualified', 'proposal', 'negotiation'];

/** The probability of each stage in percent, fixed here (reviewed like code) rather than typed per deal. */
export const DEAL_STAGE_PROBABILITY: Readonly<Record<DealStage, number>> = {
  lead: 10, qualified: 25, proposal: 50, negotiation: 75, won: 100, lost: 0,
};

const stageLabel = (stage: DealStage) => stage[0].toUpperCase() + stage.slice(1);
export const dealStageOptions: SelectOption[] = DEAL_STAGES.map((value) => ({ value, label: `${stageLabel(value)} (${DEAL_STAGE_PROBABILITY[value]}%)` }));

/**
 * The deal board's moves, in words (issue 24): the menu item for each stage a card may move to, and
 * what the one who moved it is told. Won and Lost ask first (the confirmation, the reason), so their
 * items end in an ellipsis. docs/sentences.md shows them.
 */
export const DEAL_MOVES: Readonly<Record<DealStage, { button: string; done: (title: string) => string }>> = {
  lead: { button: 'Back to lead', done: (title) => `You moved “${title}” back to the leads.` },
  qualified: { button: 'Mark as qualified', done: (title) => `You marked “${title}” as qualified.` },
  proposal: { button: 'Move to proposal', done: (title) => `You moved “${title}” to proposal.` },
  negotiation: { button: 'Move to negotiation', done: (title) => `You moved “${title}” to negotiation.` },
  won: { button: 'Mark as won…', done: (title) => `You marked “${title}” as won.` },
  lost: { button: 'Mark as lost…', done: (title) => `You marked “${title}” as lost. The reason is kept for the pipeline report.` },
};
const stageTones: Record<DealStage, BadgeTone> = { lead: 'gray', qualified: 'gray', proposal: 'yellow', negotiation: 'yellow', won: 'green', lost: 'red' };

export const DEAL_CURRENCIES = EXPENSE_CURRENCIES;
const currencyOptions: SelectOption[] = DEAL_CURRENCIES.map((code) => ({ value: code, label: code }));

/** A deal's value weighted by its stage's probability, in cents. */
export const weightedValue = (value: number, stage: DealStage) => Math.round(value * DEAL_STAGE_PROBABILITY[stage]) / 100;

export { formatMoney };

const value = z.number({ error: 'The value field is required.' })
  .positive('The value must be greater than 0.')
  .max(MAX_AMOUNT, 'The value is too large.')
  .refine(hasAtMostTwoDecimals, 'The value may have at most 2 decimals.');

export const dealTracking = defineResource({
  name: 'deal-tracking',
  dashboard: {},
  label: 'Deal',
  pluralLabel: 'Deals',
  schema: z.object({
    title: requiredText('title'),
    // Issue 22: a client, or a prospect that is not a client yet (one of them; checked on the server).
    client_id: optionalReferenceId('client'),
    prospect_name: optionalText('prospect'),
    value,
    currency: z.enum(DEAL_CURRENCIES, { error: 'The selected currency is invalid.' }),
    stage: z.enum(DEAL_STAGES, { error: 'The selected stage is invalid.' }),
    expected_close_date: dateField('expected close date').nullish(),
    owner_id: optionalReferenceId('owner'),
    next_step: optionalText('next step'),
    next_step_date: dateField('next step date').nullish(),
    notes: optionalText('notes', 5000),
    // Issue 24: why a lost deal was lost; required with the Lost stage (checked on the server).
    lost_reason: optionalText('lost reason', 500),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Service desk for the Berlin office' },
    client_id: {
      label: 'Client', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
      help: 'Empty while the deal is with a prospect.',
    },
    prospect_name: {
      label: 'Prospect', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Northwind Logistics',
      help: 'A company that is not a client yet. Winning the deal makes it a client.',
    },
    value: { label: 'Value', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true },
    currency: { label: 'Currency', input: 'select', options: currencyOptions, isInDetail: false, initialFrom: 'firm-currency' },
    stage: {
      label: 'Stage', input: 'select', options: dealStageOptions, isColumn: true, isSortable: true, badge: stageTones,
      help: 'Each stage carries a fixed probability: lead 10%, qualified 25%, proposal 50%, negotiation 75%, won 100%, lost 0%.',
    },
    probability: { label: 'Probability (%)', input: 'number', isInForm: false, isSortable: true },
    weighted_value: { label: 'Weighted Value', input: 'number', currencyField: 'currency', isInForm: false, isColumn: true, isSortable: true },
    expected_close_date: { label: 'Expected Close Date', input: 'date', isSortable: true },
    owner_id: {
      label: 'Owner', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'manager', labelKey: 'name', relation: 'owner' },
      help: 'Leave empty to own it yourself.',
    },
    next_step: { label: 'Next Step', input: 'text', placeholder: 'e.g. Send the revised proposal' },
    next_step_date: { label: 'Next Step Date', input: 'date', isSortable: true },
    notes: { label: 'Notes', input: 'textarea' },
    lost_reason: { label: 'Lost Reason', input: 'textarea', help: 'Required when the stage is Lost: why the client said no. The pipeline reports the reasons.' },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'title',
  search: ['title', 'next_step', 'prospect_name'],
  filters: [
    { key: 'stage', label: 'Stage', type: 'select', options: dealStageOptions },
    { key: 'owner_id', label: 'Owner', type: 'reference', reference: { resource: 'manager', labelKey: 'name' } },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    { key: 'currency', label: 'Currency', type: 'select', options: currencyOptions },
    { key: 'expected_close_date', label: 'Expected close', type: 'date-range' },
  ],
  defaultSort: { key: 'expected_close_date', direction: 'asc' },
  permissions: { view: 'can-view-deal-tracking', add: 'can-add-deal-tracking', edit: 'can-edit-deal-tracking', delete: 'can-delete-deal-tracking' },
  routes: { index: 'deal-tracking.index', create: 'deal-tracking.create', show: 'deal-tracking.show', edit: 'deal-tracking.edit' },
  menu: { icon: 'chart', order: 220, label: 'Deal Tracking' },
});

/** Weighted pipeline totals (GET /api/deal-tracking/pipeline): amounts never add up across currencies. */
export type PipelineAmount = z.infer<typeof pipelineAmountSchema>;
export type DealPipeline = z.infer<typeof dealPipelineSchema>;

export const LOST_REASONS_SHOWN = 8;
/** Said when a deal is moved to Lost without its reason. */
export const DEAL_LOST_REASON_REQUIRED = 'Say why the deal was lost: the pipeline reports the reasons.';

/** Said when a deal names neither a client nor a prospect. */
export const DEAL_PARTY_REQUIRED = 'Choose the client, or name the prospect if it is not a client yet.';
