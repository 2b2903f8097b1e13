import { z } from 'zod';
import { defineResource, optionalText, requiredText, statusField } from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

/** Categories expenses are filed under (routes are named category-expense.* in spec §2). */
export const expenseCategory = defineResource({
  name: 'expense-category',
  label: 'Expense Category',
  pluralLabel: 'Expense Categories',
  schema: z.object({
    name: requiredText('name', 100),
    description: optionalText('description', 500),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    description: { label: 'Description', input: 'textarea' },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [statusFilter, createdAtFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-expense-category', add: 'can-add-expense-category', edit: 'can-edit-expense-category', delete: 'can-delete-expense-category' },
  routes: { index: 'category-expense.index', create: 'category-expense.create', show: 'category-expense.show', edit: 'category-expense.edit' },
  menu: { icon: 'tag', group: 'Expense', order: 10 },
});

/** The categories a new installation starts with (issue 22); admins rename, add or retire them afterwards. */
export const defaultExpenseCategories: readonly { name: string; description: string }[] = [
  { name: 'Travel', description: 'Flights, trains, taxis and other fares for work trips.' },
  { name: 'Meals', description: 'Meals while travelling or with a client.' },
  { name: 'Accommodation', description: 'Hotels and other lodging on work trips.' },
  { name: 'Mileage', description: 'Business distance driven in your own car.' },
  { name: 'Equipment', description: 'Hardware, accessories and tools bought for work.' },
  { name: 'Training', description: 'Courses, certifications, exams and books.' },
  { name: 'Other', description: 'Anything the other categories do not cover.' },
];
