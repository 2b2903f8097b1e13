import { z } from 'zod';
import { defineResource, requiredText } from './define';
import { createdAtColumn } from './common';
import { OFFER_PLACEHOLDERS } from './interview';

/**
 * Offer letter templates (issue 28): the firm's own wording of an offer, with placeholders the
 * recruiter's offer fills in ({{candidate_name}}, {{position}}, {{client}}, {{start_date}}, {{rate}}).
 * An offer keeps the text it was made from: changing a template never changes a letter already sent.
 */
export const offerTemplate = defineResource({
  name: 'offer-template',
  label: 'Offer Letter Template',
  pluralLabel: 'Offer Letter Templates',
  schema: z.object({
    name: requiredText('name', 150),
    body: requiredText('letter', 10_000),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Contractor offer' },
    body: {
      label: 'Letter', input: 'textarea',
      help: `Placeholders: ${OFFER_PLACEHOLDERS.join(', ')}. A blank line starts a new paragraph.`,
    },
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-offer-template', add: 'can-add-offer-template', edit: 'can-edit-offer-template', delete: 'can-delete-offer-template' },
  routes: { index: 'offer-template.index' },
});

/** The template a new installation starts with; the firm edits it. */
export const DEFAULT_OFFER_TEMPLATE = {
  name: 'Standard offer',
  body: `Dear {{candidate_name}},

We are pleased to offer you the position of {{position}} with our client {{client}}, starting on {{start_date}}.

Your rate is {{rate}}. The full terms follow in your contract, which we send once you accept this offer.

Please accept or decline this offer with the link you received. We look forward to working with you.`,
};
