import { z } from 'zod';
import { defineResource, optionalText, requiredText, statusField } from './define';
import { createdAtColumn, statusColumn, statusFilter } from './common';

/** Groups assessment questions; its questions are listed at /question-category/{id}/question. */
export const questionCategory = defineResource({
  name: 'question-category',
  label: 'Question Category',
  pluralLabel: 'Question Categories',
  schema: z.object({
    name: requiredText('name', 150),
    description: optionalText('description', 500),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    description: { label: 'Description', input: 'textarea' },
    questions_count: { label: 'Questions', input: 'number', isColumn: true, isSortable: true, isInForm: false },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [statusFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-question-category', add: 'can-add-question-category', edit: 'can-edit-question-category', delete: 'can-delete-question-category' },
  // No show screen (spec §2): the category's page is its question list, route question-category.question.
  routes: { index: 'question-category.index', create: 'question-category.create', edit: 'question-category.edit' },
  menu: { icon: 'tag', group: 'Candidate', order: 20 },
});
