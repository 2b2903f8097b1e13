// A resource that exists only in tests (issue 25): its definition and its table, and nothing else
// written for it, to show what follows from a definition alone.
import { pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { defineResource, requiredText } from '../../src/shared/resources/define';

export const gadget = defineResource({
  name: 'gadget', label: 'Gadget', pluralLabel: 'Gadgets',
  // Its own answer to a create and a delete (an update keeps the default): the generic routes say them, with no module.
  words: { created: (row) => `“${String(row.name)}” is in the gadget drawer.`, deleted: (row) => `“${String(row.name)}” is out of the drawer.` },
  schema: z.object({ name: requiredText('name', 100) }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    created_at: { label: 'Created', input: 'date', isColumn: true, isSortable: true, isInForm: false },
  },
  titleKey: 'name', search: ['name'], defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-gadget', add: 'can-add-gadget', edit: 'can-edit-gadget', delete: 'can-delete-gadget' },
  routes: { index: 'gadget.index', create: 'gadget.create', show: 'gadget.show', edit: 'gadget.edit' },
  menu: { icon: 'tag' },
  // Counted by the dashboard, and its write routes walked by the grant walk: what those lists derive from.
  dashboard: {},
  grantsAccess: true,
});

/** Its table, as `npx drizzle-kit generate` would create it (the test creates it with this SQL). */
export const gadgets = pgTable('gadgets', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export const gadgetsSql = `create table gadgets (id serial primary key, name varchar(100) not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now())`;
