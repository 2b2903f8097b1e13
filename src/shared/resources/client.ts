import { z } from 'zod';
import { defineResource, optionalReferenceId, optionalText, requiredText, statusField } from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

/** A client (customer) of the firm; positions are opened for clients. */
export const client = defineResource({
  name: 'client',
  dashboard: {},
  label: 'Client',
  pluralLabel: 'Clients',
  schema: z.object({
    name: requiredText('name'),
    email: z.string().trim().toLowerCase().email('The email field must be a valid email address.').max(255).nullish(),
    phone: optionalText('phone', 30),
    address: optionalText('address', 500),
    country_id: optionalReferenceId('country'),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    email: { label: 'Email', input: 'email', isColumn: true, isSortable: true },
    phone: { label: 'Phone', input: 'text', isColumn: true },
    address: { label: 'Address', input: 'textarea' },
    country_id: {
      label: 'Country', input: 'reference', isColumn: true,
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name', 'email', 'phone'],
  filters: [
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    statusFilter, createdAtFilter,
  ],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-client', add: 'can-add-client', edit: 'can-edit-client', delete: 'can-delete-client' },
  routes: { index: 'client.index', create: 'client.create', show: 'client.show', edit: 'client.edit' },
  menu: { icon: 'briefcase', order: 60 },
  // Issue 22: clients in bulk from a file.
  importer: {
    columns: [
      { header: 'Name', field: 'name' }, { header: 'Email', field: 'email' }, { header: 'Phone', field: 'phone' },
      { header: 'Address', field: 'address' }, { header: 'Country', field: 'country_id' }, { header: 'Status', field: 'status' },
    ],
    defaults: { status: 'active' },
    example: { Name: 'Northwind Traders', Email: 'accounts@northwind.example', Phone: '+44 20 7946 0100', Address: '1 High Street, London', Country: 'United Kingdom', Status: 'Active' },
  },
  // Issue 14: a client's page lists the positions opened for it.
  related: [{ resource: 'position', field: 'client_id', title: 'Positions' }],
});
