import { z } from 'zod';
import {
  calendarDate, defineResource, emailField, MAX_ID, optionalReferenceId, optionalText, requiredText, statusField, type MenuPlacement, type SelectOption,
} from './define';
import { chosenOneRefused } from '../words';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

export const userTypes = ['admin', 'manager', 'user'] as const;
export type UserType = (typeof userTypes)[number];

/**
 * Issue 22: where a person stands with their invitation. Invited: has never set a password (the
 * invitation is still open); never signed in: set one but has not signed in since; active: has signed in.
 */
export const accessStatuses: SelectOption[] = [
  { value: 'invited', label: 'Invited' },
  { value: 'never signed in', label: 'Never signed in' },
  { value: 'active', label: 'Active' },
];

const optionalDate = (label: string) => z.string({ error: `The ${label} field must be a real date in the format YYYY-MM-DD.` })
  .pipe(calendarDate(`The ${label} field must be a real date in the format YYYY-MM-DD.`)).nullish();

// A user chosen in a field (an assignee, a back-fill, the people placed) is a person to those who choose.
const labels: Record<UserType, { label: string; pluralLabel: string; noun?: { one: string; many: string } }> = {
  admin: { label: 'Admin', pluralLabel: 'Admins' },
  manager: { label: 'Manager', pluralLabel: 'Managers' },
  user: { label: 'User', pluralLabel: 'Users', noun: { one: 'person', many: 'people' } },
};

const userMenu: Record<UserType, MenuPlacement> = {
  admin: { icon: 'shield', order: 110 },
  manager: { icon: 'users', order: 120 },
  user: { icon: 'user', order: 130 },
};

/**
 * The people screens (spec §2 /admin, /manager, /user): one table, one definition per user_type.
 * Creating one sends one mail, a set-password invitation (using it verifies the address), sets force_password_reset and
 * gives the role named like the type (plus `role_ids`); deactivating one signs them out everywhere.
 */
function defineUserResource(userType: UserType) {
  return defineResource({
    name: userType,
    ...labels[userType],
    // Creating one mails the invitation; an admin's change of the address waits for the new one (issue 20).
    words: {
      created: `${labels[userType].label} created successfully. An invitation to set a password has been emailed.`,
      updated: (row) => (row.pending_email
        ? `${labels[userType].label} updated successfully. The email address changes to ${String(row.pending_email)} once the link we sent there is opened.`
        : `${labels[userType].label} updated successfully.`),
    },
    // The people cards count every type; the kept counts are the users table's, declared once (on 'user').
    dashboard: userType === 'user' ? { keptBy: ['user_type', 'status'] } : {},
    grantsAccess: true,
    schema: z.object({
      name: requiredText('name'),
      email: emailField(),
      phone: optionalText('phone', 30),
      employee_type_id: optionalReferenceId('employee type'),
      parent_id: optionalReferenceId('manager'),
      country_id: optionalReferenceId('country'),
      city_id: optionalReferenceId('city'),
      status: statusField(),
      // Issue 22: the HR record.
      employee_id: optionalText('employee ID', 50),
      job_title: optionalText('job title'),
      department: optionalText('department'),
      join_date: optionalDate('join date'),
      exit_date: optionalDate('exit date'),
      work_location_id: optionalReferenceId('work location'),
      // Extra roles; the role matching the user type is always given.
      role_ids: z.array(z.number().int().positive(chosenOneRefused('role')).max(MAX_ID, chosenOneRefused('role')), { error: 'The roles field must be a list.' }).max(20).optional(),
    }),
    fields: {
      name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
      email: { label: 'Email', input: 'email', isColumn: true, isSortable: true },
      phone: { label: 'Phone', input: 'text', isColumn: true },
      employee_type_id: {
        label: 'Employee Type', input: 'reference', isColumn: true,
        reference: { resource: 'employee-type', labelKey: 'name', relation: 'employee_type' },
      },
      parent_id: {
        label: 'Manager', input: 'reference', isColumn: true,
        reference: { resource: 'manager', labelKey: 'name', relation: 'parent' },
      },
      country_id: {
        label: 'Country', input: 'reference',
        reference: { resource: 'country', labelKey: 'name', relation: 'country' },
      },
      city_id: {
        label: 'City', input: 'reference',
        reference: { resource: 'city', labelKey: 'name', relation: 'city', dependsOn: { country_id: 'country_id' } },
      },
      status: statusColumn,
      employee_id: { label: 'Employee ID', input: 'text', isColumn: true, isSortable: true },
      job_title: { label: 'Job Title', input: 'text' },
      department: { label: 'Department', input: 'text', isColumn: true, isSortable: true },
      join_date: { label: 'Join Date', input: 'date', isSortable: true },
      exit_date: { label: 'Exit Date', input: 'date' },
      work_location_id: {
        label: 'Work Location', input: 'reference', isColumn: true,
        reference: { resource: 'city', labelKey: 'name', relation: 'work_location' },
        help: 'The city the person works from: its country\'s public holidays are theirs.',
      },
      role_ids: {
        label: 'Roles', input: 'multiselect', isColumn: true,
        reference: { resource: 'role', labelKey: 'name', relation: 'roles' },
      },
      email_verified_at: { label: 'Email Verified At', input: 'date', isInForm: false },
      // Issue 20: an admin's change of the address waits for the new address to confirm it.
      pending_email: { label: 'New email (waiting for confirmation)', input: 'email', isInForm: false },
      last_activity_at: { label: 'Last Activity', input: 'date', isInForm: false, isSortable: true },
      // Issue 22: computed on the server (users' access_status): invited, never signed in or active.
      access_status: {
        label: 'Sign-in', input: 'select', options: accessStatuses, isInForm: false, isColumn: true,
        badge: { invited: 'yellow', 'never signed in': 'gray', active: 'green' },
      },
      created_at: createdAtColumn,
    },
    titleKey: 'name',
    // Twelve columns: who, whether they may sign in and with what roles first; at 1366 px the status was the sixth, out of sight.
    listOrder: ['name', 'email', 'status', 'access_status', 'role_ids', 'parent_id', 'department', 'employee_id'],
    // The users_search_trgm index is built on exactly these, in this order (src/server/db/schema/accounts.ts).
    search: ['name', 'email', 'phone', 'employee_id', 'job_title', 'department'],
    filters: [
      statusFilter,
      { key: 'access_status', label: 'Sign-in', type: 'select', options: accessStatuses },
      { key: 'department', label: 'Department', type: 'text' },
      { key: 'work_location_id', label: 'Work Location', type: 'reference', reference: { resource: 'city', labelKey: 'name' } },
      { key: 'employee_type_id', label: 'Employee Type', type: 'reference', reference: { resource: 'employee-type', labelKey: 'name' } },
      { key: 'parent_id', label: 'Manager', type: 'reference', reference: { resource: 'manager', labelKey: 'name' } },
      { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
      { key: 'city_id', label: 'City', type: 'reference', reference: { resource: 'city', labelKey: 'name' } },
      createdAtFilter,
    ],
    defaultSort: { key: 'name', direction: 'asc' },
    permissions: {
      view: `can-view-${userType}`, add: `can-add-${userType}`, edit: `can-edit-${userType}`, delete: `can-delete-${userType}`,
    },
    routes: { index: `${userType}.index`, create: `${userType}.create`, show: `${userType}.show`, edit: `${userType}.edit` },
    menu: userMenu[userType],
    // Issue 14: a manager's page lists their team (the users reporting to them).
    ...(userType === 'manager' ? { related: [{ resource: 'user', field: 'parent_id', title: 'Team' }] } : {}),
    // Issue 20: an admin account is the key to everything; only an admin makes or changes one.
    ...(userType === 'admin' ? { isWrittenByAdminOnly: true } : {}),
    importer: {
      columns: [
        { header: 'Name', field: 'name' },
        { header: 'Email', field: 'email' },
        { header: 'Phone', field: 'phone' },
        { header: 'Employee Type', field: 'employee_type_id' },
        { header: 'Manager Email', field: 'parent_id', matchBy: 'email' },
        { header: 'Country', field: 'country_id' },
        { header: 'City', field: 'city_id' },
        { header: 'Roles', field: 'role_ids' },
        { header: 'Employee ID', field: 'employee_id' },
        { header: 'Job Title', field: 'job_title' },
        { header: 'Department', field: 'department' },
        { header: 'Join Date', field: 'join_date' },
        { header: 'Work Location', field: 'work_location_id' },
      ],
      defaults: { status: 'active' },
      example: {
        Name: 'Priya Raman', Email: 'priya.raman@example.com', Phone: '+44 20 7946 0000', 'Employee Type': 'Full-time',
        'Manager Email': 'manager@example.com', Country: 'United Kingdom', City: 'London', Roles: '', 'Employee ID': 'E-0042',
        'Job Title': 'Software Engineer', Department: 'Engineering', 'Join Date': '2026-01-05', 'Work Location': 'London',
      },
    },
  });
}

export const admin = defineUserResource('admin');
export const manager = defineUserResource('manager');
export const user = defineUserResource('user');

/** Users seen by the heartbeat (spec §9, every 2 minutes) in the last ACTIVE_USER_MINUTES. Read-only. */
export const ACTIVE_USER_MINUTES = 5;

export const activeUser = defineResource({
  name: 'active-user',
  dashboard: {},
  label: 'Active User',
  pluralLabel: 'Active Users',
  schema: z.object({}),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    email: { label: 'Email', input: 'email', isColumn: true, isSortable: true },
    user_type: {
      label: 'Type', input: 'select', isColumn: true, isSortable: true,
      options: userTypes.map((type) => ({ value: type, label: labels[type].label })),
    },
    last_activity_at: { label: 'Last Activity', input: 'date', isColumn: true, isSortable: true },
  },
  titleKey: 'name',
  search: ['name', 'email'],
  filters: [{ key: 'user_type', label: 'Type', type: 'select', options: userTypes.map((type) => ({ value: type, label: labels[type].label })) }],
  defaultSort: { key: 'last_activity_at', direction: 'desc' },
  permissions: { view: 'can-view-active-user' },
  routes: { index: 'active-user.index' },
  menu: { icon: 'activity', order: 100 },
});
