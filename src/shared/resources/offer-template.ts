import { z } from 'zod';
import { defineResource, requiredText } from './define';
import { createdAtColumn } from './common';
import { OFFER_LINK_DAYS, OFFER_PLACEHOLDERS } from './interview';

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
  menu: { icon: 'file', group: 'Candidate', order: 40 },
});

/**
 * The template a fresh install starts with (seeded with the firm's starting lists, issue 28): a whole
 * letter using every placeholder, so the recruiter's first offer needs no template written first. The
 * firm edits or replaces it like any other; the PDF heads it with the firm's name and the date.
 */
export const DEFAULT_OFFER_TEMPLATE = {
  name: 'Standard offer',
  body: `Dear {{candidate_name}},

Thank you for the time you gave us during the interviews. We are delighted to offer you the position of {{position}}, on assignment with our client {{client}}.

You will start on {{start_date}}. Your rate is {{rate}}. Your place of work, working hours and the person you report to will be confirmed to you before your first day.

This offer depends on satisfactory references, a background check and proof of your right to work, and on the terms of the contract we send you once you accept it. Until then, please keep its terms confidential.

To accept, open the link in the email that brought you this letter and type your full name as your signature; you can also decline the offer there. The link is valid for ${OFFER_LINK_DAYS} days.

We look forward to welcoming you to the team.

Yours sincerely,

The Recruitment Team`,
};
