import { z } from 'zod';
import { defineResource, referenceId, requiredText, type SelectOption } from './define';
import { createdAtColumn } from './common';

/** spec §4 "Skill levels". */
export const skillLevels: SelectOption[] = [
  { value: 1, label: 'Beginner' }, { value: 2, label: 'Intermediate' }, { value: 3, label: 'Advanced' },
];

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 6;

/**
 * An assessment question of a category: its text, the options offered, the correct answer
 * (one of the options; the server checks it) and a skill level.
 * Screens: list /question-category/{id}/question, /question/{category_id}/create,
 * /question/{category_id}/{id}/edit, /question/{id}. The API lists with ?question_category_id=.
 */
export const question = defineResource({
  name: 'question',
  label: 'Question',
  pluralLabel: 'Questions',
  schema: z.object({
    question_category_id: referenceId('question category'),
    question: requiredText('question', 2000),
    options: z.array(requiredText('option', 500), { error: 'The options field is required.' })
      .min(MIN_OPTIONS, `The options field must have at least ${MIN_OPTIONS} items.`)
      .max(MAX_OPTIONS, `The options field must not have more than ${MAX_OPTIONS} items.`),
    correct_answer: requiredText('correct answer', 500),
    skill_level: z.number({ error: 'The skill level field is required.' }).int()
      .min(1, 'The selected skill level is invalid.').max(3, 'The selected skill level is invalid.'),
  }),
  fields: {
    question: { label: 'Question', input: 'textarea', isColumn: true, isSortable: true },
    question_category_id: {
      label: 'Category', input: 'reference', isInForm: false,
      reference: { resource: 'question-category', labelKey: 'name', relation: 'question_category' },
    },
    options: { label: 'Options', input: 'list', help: `${MIN_OPTIONS} to ${MAX_OPTIONS} options.` },
    correct_answer: { label: 'Correct Answer', input: 'select', optionsFrom: 'options', isColumn: true },
    skill_level: { label: 'Skill Level', input: 'select', options: skillLevels, isColumn: true, isSortable: true },
    created_at: createdAtColumn,
  },
  titleKey: 'question',
  search: ['question'],
  filters: [{ key: 'skill_level', label: 'Skill Level', type: 'select', options: skillLevels }],
  defaultSort: { key: 'created_at', direction: 'asc' },
  permissions: { view: 'can-view-question', add: 'can-add-question', edit: 'can-edit-question', delete: 'can-delete-question' },
  routes: { index: 'question-category.question', create: 'question.create', show: 'question.show', edit: 'question.edit' },
  // The category comes from the route (/question/{category_id}/create), so the form does not show it.
  parent: { resource: 'question-category', field: 'question_category_id' },
  // Issue 22: the question bank in bulk from a file: each question's category by name, its options
  // separated by ";" and the correct answer written as one of them.
  importer: {
    columns: [
      { header: 'Category', field: 'question_category_id' }, { header: 'Question', field: 'question' },
      { header: 'Options', field: 'options' }, { header: 'Correct Answer', field: 'correct_answer' }, { header: 'Skill Level', field: 'skill_level' },
    ],
    example: { Category: 'Java', Question: 'Which keyword makes a field belong to the class?', Options: 'static; final; public', 'Correct Answer': 'static', 'Skill Level': 'Beginner' },
  },
});
