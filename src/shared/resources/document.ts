import { z } from 'zod';
import { dateField, defineResource, optionalText, requiredText, type SelectOption } from './define';
import { createdAtColumn } from './common';
import { dayName } from './offline-words';
import { COMPLIANCE_FILE_EXTENSIONS, COMPLIANCE_FILE_MAX_BYTES } from './document-repository';

/**
 * A person's own documents (issue 10, spec /document "upload-assigned-document"): a certification,
 * a visa, a clearance, with its expiry date. The holder uploads them; the repository's staff see
 * everyone's (a person's compliance), nobody else sees them.
 */
export const OWN_DOCUMENT_TYPES = ['certification', 'visa', 'clearance', 'nda', 'other'] as const;
export const ownDocumentTypeOptions: SelectOption[] = [
  { value: 'certification', label: 'Certification' }, { value: 'visa', label: 'Visa / work permit' },
  { value: 'clearance', label: 'Background clearance' }, { value: 'nda', label: 'NDA' }, { value: 'other', label: 'Other' },
];

export const ownDocument = defineResource({
  name: 'document',
  dashboard: {},
  label: 'Own Document',
  pluralLabel: 'Own Documents',
  // On the holder's own screen ("My Documents") a record is simply a document: "Add a document", not "Add Own Document".
  actions: { record: 'document', records: 'documents' },
  // Only the holder writes one: said to them, not "Own document created successfully.", with the expiry as
  // people write a day ("31 March 2027", not 2027-03-31), in the present tense of the screen's own words.
  words: {
    created: (row) => `“${String(row.title)}” is added to your documents.${row.expiry_date ? ` You are reminded before it expires on ${dayName(row.expiry_date)}.` : ''}`,
    updated: (row) => `“${String(row.title)}” is updated.`,
    deleted: 'The document is removed from your documents.',
  },
  schema: z.object({
    title: requiredText('title'),
    document_type: z.enum(OWN_DOCUMENT_TYPES, { error: 'The selected type is invalid.' }),
    expiry_date: dateField('expiry date').nullish(),
    notes: optionalText('notes', 2000),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. AWS Solutions Architect' },
    document_type: { label: 'Type', input: 'select', options: ownDocumentTypeOptions, isColumn: true, isSortable: true },
    expiry_date: { label: 'Expiry Date', input: 'date', isColumn: true, isSortable: true, help: 'Empty if it never expires.' },
    user_id: {
      label: 'Holder', input: 'reference', isColumn: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'holder' },
    },
    file: {
      label: 'File', input: 'file',
      file: { extensions: COMPLIANCE_FILE_EXTENSIONS, maxBytes: COMPLIANCE_FILE_MAX_BYTES },
    },
    notes: { label: 'Notes', input: 'textarea' },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'title',
  search: ['title'],
  filters: [
    { key: 'document_type', label: 'Type', type: 'select', options: ownDocumentTypeOptions },
    { key: 'user_id', label: 'Holder', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'expiry_date', label: 'Expiry Date', type: 'date-range' },
  ],
  defaultSort: { key: 'expiry_date', direction: 'asc' },
  // One permission for the holder's own screen; what else they see is the server's scope.
  permissions: { view: 'can-view-own-document', add: 'can-view-own-document', edit: 'can-view-own-document', delete: 'can-view-own-document' },
  routes: { index: 'upload-assigned-document.index' },
  menu: { icon: 'upload', order: 190, label: 'My Documents' },
});
