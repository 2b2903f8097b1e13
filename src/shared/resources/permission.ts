import { z } from 'zod';
import { defineResource } from './define';
import { createdAtColumn } from './common';
import { allPermissions, partnerOnlyPermissions } from '../permissions';
import { appMenu, partnerMenu, type MenuEntry } from '../menu';

/**
 * Permission names (spec §6): can-{verb}-{area}. Issue 28: they are a fixed catalogue, the names the
 * code checks (`allPermissions`: the spec's, the definitions' and the modules' own), seeded on every
 * start; a name the code no longer has is removed. Nobody adds, renames or deletes one here: a name
 * typed in by hand would be checked by nothing. The list screen is read-only and says what each opens.
 */
export const permission = defineResource({
  name: 'permission',
  label: 'Permission',
  pluralLabel: 'Permissions',
  // No form: the schema only describes the rows (no create or update route is registered without `add`/`edit`).
  schema: z.object({ name: z.string().max(150) }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, isInForm: false },
    screen: { label: 'Screen', input: 'text', isColumn: true, isInForm: false },
    description: { label: 'What it opens', input: 'text', isColumn: true, isInForm: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'name',
  search: ['name'],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-permission' },
  routes: { index: 'permission.index' },
  menu: { icon: 'key', group: 'Role & Permission', order: 20 },
});

// ---- The catalogue: which screen each permission belongs to and what it opens ----

/** can-view-country -> country; can-assign-document -> document (spec §6 names are can-{verb}-{area}). */
export function permissionArea(name: string): string {
  const match = /^can-(?:view|add|create|edit|delete|assign|approve|review|pay|reimburse)-(.+)$/.exec(name);
  return match ? match[1] : name.replace(/^can-/, '');
}

const verbOfName = (name: string) => /^can-([a-z]+)-/.exec(name)?.[1] ?? '';

/**
 * What a permission opens, in a sentence, where its verb alone does not say it (a workflow step, a
 * screen of its own). The plain verbs are worded once below, under their screen's heading.
 */
const SENTENCES: Record<string, string> = {
  'can-view-dashboard': 'Opens the dashboard, the first page after signing in.',
  'can-edit-profile': 'Opens their own profile: name, email, phone, password and notification choices.',
  'can-view-active-user': 'Lists who has used the app in the last minutes.',
  'can-assign-document': 'Assigns compliance documents to people to read or return.',
  'can-view-document-assign-history': 'Lists every document assigned, to whom, and what came back.',
  'can-view-own-document': 'Opens My Documents: the documents assigned to them, to read or return.',
  'can-review-document': 'Approves or rejects a returned copy of a compliance document.',
  'can-view-setting': 'Opens the settings.',
  'can-edit-setting': 'Changes the settings: firm profile, time zone, working week, expenses and announcements.',
  'can-approve-leave-application': 'Approves or rejects the leave of the people they manage.',
  'can-approve-expense': 'Takes the manager\'s step on their people\'s expense claims.',
  'can-review-expense': 'Takes finance\'s step on expense claims after the manager\'s.',
  'can-reimburse-expense': 'Pays approved expense claims in reimbursement batches and keeps people\'s bank details.',
  'can-review-pre-billing': 'Checks a partner\'s pre-billing statement against the approved time sheets.',
  'can-approve-pre-billing': 'Approves a checked pre-billing statement, so the partner may invoice it.',
  'can-approve-partner-invoice': 'Takes the account manager\'s step on the invoices of the partner firms they manage.',
  'can-pay-partner-invoice': 'Gives the final approval of partner invoices and records their payments.',
  'can-approve-partner-bank-details': 'Approves or rejects the new bank details a partner firm asks for; until then payments go to the old ones.',
  'can-delegate-approvals': 'Opens Approvals While Away, where a manager hands their approvals to another manager for a range of days, and an admin does it for any manager.',
  'can-view-permission': 'Opens this catalogue of permissions (read only).',
  // The partner portal (partner logins only).
  'can-view-invoice': 'In the partner portal: lists the firm\'s invoices.',
  'can-add-invoice': 'In the partner portal: raises an invoice for an approved pre-billing statement.',
  'can-edit-invoice': 'In the partner portal: changes an invoice finance has not yet approved.',
  'can-delete-invoice': 'In the partner portal: deletes a draft invoice.',
  'can-edit-firm-profile': 'In the partner portal: changes the firm\'s address and tax registration, and asks for new bank details.',
  'can-view-colleague': 'In the partner portal: lists the firm\'s other logins.',
  'can-add-colleague': 'In the partner portal: invites a colleague to a login of the firm.',
  'can-edit-colleague': 'In the partner portal: deactivates or reactivates a colleague\'s login of the firm.',
};

/** The plain verbs: a sentence under the screen's heading, so it needs no screen name of its own. */
const VERB_SENTENCES: Record<string, string> = {
  view: 'Opens the screen: the list and each record\'s page.',
  add: 'Adds new records from the screen.',
  create: 'Adds new records from the screen.',
  edit: 'Changes existing records.',
  delete: 'Deletes records nothing else depends on.',
};

/** The screen a permission belongs to: the menu entry its area's view permission opens, else the area's name. */
function screenOf(name: string): string {
  if (name === 'can-edit-profile') return 'Profile';
  if (name === 'can-review-document') return 'Assign History';
  if (name === 'can-approve-partner-bank-details') return 'Partner';
  if (['can-edit-firm-profile', 'can-view-colleague', 'can-add-colleague', 'can-edit-colleague'].includes(name)) return 'Partner portal: profile and colleagues';
  if (partnerOnlyPermissions.includes(name)) return 'Partner portal: invoices';
  const area = permissionArea(name);
  const entry = menuLabels.get(name) ?? menuLabels.get(`can-view-${area}`);
  if (entry) return entry;
  return area.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** Menu label by the permission that opens the entry (the first entry wins: Expense before File an Expense). */
const menuLabels = new Map<string, string>();
const collect = (entries: readonly MenuEntry[]) => {
  for (const entry of entries) {
    if (entry.permission && !menuLabels.has(entry.permission)) menuLabels.set(entry.permission, entry.label);
    if (entry.children) collect(entry.children);
  }
};
collect(appMenu);
collect(partnerMenu.filter((entry) => entry.permission));

export interface CatalogueEntry { name: string; screen: string; verb: string; description: string }

/** One permission's place and sentence. */
export function describePermission(name: string): CatalogueEntry {
  const verb = verbOfName(name);
  return { name, screen: screenOf(name), verb, description: SENTENCES[name] ?? VERB_SENTENCES[verb] ?? 'Opens what its name says.' };
}

/** The whole catalogue, in the code's order. */
export const permissionCatalogue: readonly CatalogueEntry[] = allPermissions.map(describePermission);

export interface PermissionGroup { screen: string; permissions: (CatalogueEntry & { id: number })[] }

/** View, add, edit, delete, then the workflow steps: the order people read them in. */
const VERB_ORDER = ['view', 'add', 'create', 'edit', 'delete', 'assign', 'review', 'approve', 'pay', 'reimburse', 'delegate'];
const verbRank = (verb: string) => (VERB_ORDER.includes(verb) ? VERB_ORDER.indexOf(verb) : VERB_ORDER.length);

/** Stored permissions grouped by screen for the role form: screens by name, each screen's in verb order. */
export function groupPermissionsByScreen(list: readonly { id: number; name: string }[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const { id, name } of list) {
    const entry = describePermission(name);
    if (!groups.has(entry.screen)) groups.set(entry.screen, { screen: entry.screen, permissions: [] });
    groups.get(entry.screen)!.permissions.push({ ...entry, id });
  }
  return [...groups.values()]
    .sort((a, b) => a.screen.localeCompare(b.screen))
    .map((group) => ({ ...group, permissions: group.permissions.sort((a, b) => verbRank(a.verb) - verbRank(b.verb) || a.name.localeCompare(b.name)) }));
}
