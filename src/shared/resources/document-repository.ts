import { z } from 'zod';
import { dateField, defineResource, optionalText, requiredText, type SelectOption, statusField } from './define';
import { createdAtColumn, statusColumn, statusFilter } from './common';

/**
 * The compliance library (issue 10, spec /document-repository): policies and forms the firm assigns
 * to people. Each upload of the file is a version; every version stays downloadable, and a new one
 * asks everyone assigned the document to acknowledge (or return) it again.
 */

/** spec §4 "Categories". */
export const DOCUMENT_CATEGORIES = ['technology', 'finance', 'HR', 'compliance', 'global HR'] as const;
export const documentCategoryOptions: SelectOption[] = [
  { value: 'technology', label: 'Technology' }, { value: 'finance', label: 'Finance' }, { value: 'HR', label: 'HR' },
  { value: 'compliance', label: 'Compliance' }, { value: 'global HR', label: 'Global HR' },
];

/** What an assignee must do with the document. */
export const DOCUMENT_ACTIONS = ['acknowledge', 'return'] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];
export const documentActionOptions: SelectOption[] = [
  { value: 'acknowledge', label: 'Read and acknowledge' },
  { value: 'return', label: 'Return a signed or completed copy' },
];

/** PDF, images and office documents; the server checks each file's first bytes too. */
export const COMPLIANCE_FILE_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', 'docx', 'doc', 'xlsx', 'xls', 'odt', 'ods'] as const;
export const COMPLIANCE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Versions a document keeps (each upload adds one; none is ever dropped). */
export const MAX_DOCUMENT_VERSIONS = 100;

export const documentRepository = defineResource({
  name: 'document-repository',
  dashboard: {},
  label: 'Document',
  pluralLabel: 'Documents',
  schema: z.object({
    title: requiredText('title'),
    category: z.enum(DOCUMENT_CATEGORIES, { error: 'The selected category is invalid.' }),
    action: z.enum(DOCUMENT_ACTIONS, { error: 'The selected action is invalid.' }),
    description: optionalText('description', 20_000),
    expiry_date: dateField('expiry date').nullish(),
    status: statusField(),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Information security policy' },
    category: { label: 'Category', input: 'select', options: documentCategoryOptions, isColumn: true, isSortable: true },
    action: { label: 'Assignees must', input: 'select', options: documentActionOptions, isColumn: true },
    description: { label: 'Description', input: 'richtext' },
    expiry_date: { label: 'Expiry / Review Date', input: 'date', isColumn: true, isSortable: true, help: 'When the document must be reviewed or renewed; empty if never.' },
    status: statusColumn,
    file: {
      label: 'File (versions)', input: 'file',
      file: { extensions: COMPLIANCE_FILE_EXTENSIONS, maxBytes: COMPLIANCE_FILE_MAX_BYTES, isMultiple: true, maxFiles: MAX_DOCUMENT_VERSIONS },
      help: 'Each file added is a new version: everyone assigned the document is asked again. Earlier versions stay downloadable.',
    },
    version: { label: 'Version', input: 'number', isColumn: true, isInForm: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'title',
  search: ['title'],
  filters: [
    { key: 'category', label: 'Category', type: 'select', options: documentCategoryOptions },
    { key: 'action', label: 'Assignees must', type: 'select', options: documentActionOptions },
    statusFilter,
    { key: 'expiry_date', label: 'Expiry / Review Date', type: 'date-range' },
  ],
  defaultSort: { key: 'title', direction: 'asc' },
  permissions: {
    view: 'can-view-document-repository', add: 'can-add-document-repository',
    edit: 'can-edit-document-repository', delete: 'can-delete-document-repository',
  },
  routes: { index: 'document-repository.index', show: 'document-repository.show' },
  menu: { icon: 'file', group: 'Compliance Library', order: 10, label: 'Document Repository' },
});
