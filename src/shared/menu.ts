// The sidebars (spec §2): the spec's entries, those the definitions declare, and the filter by permission.
// Apart from the route table (routes.ts) because only the authenticated layouts draw a menu: the login
// screen's `core` chunk, which carries the route table for the guards, does not load them.
import { resourceMenu } from './generated/resources';
import type { GeneratedMenuEntry } from './resources/manifest';
import type { MenuEntry } from './routes';

export type { MenuEntry };

/** The spec's sidebar (spec §2 named menu routes, grouped sections). */
const specMenu: MenuEntry[] = [
  { label: 'Dashboard', route: 'dashboard', permission: 'can-view-dashboard', icon: 'home' },
  { label: 'Leave Application', route: 'leave-application.index', permission: 'can-view-leave-application', icon: 'calendar' },
  { label: 'Approvals While Away', route: 'delegation', permission: 'can-delegate-approvals', icon: 'users' },
  { label: 'Country', route: 'country.index', permission: 'can-view-country', icon: 'globe' },
  { label: 'City', route: 'city.index', permission: 'can-view-city', icon: 'map' },
  { label: 'Client', route: 'client.index', permission: 'can-view-client', icon: 'briefcase' },
  { label: 'Employee Type', route: 'employee-type.index', permission: 'can-view-employee-type', icon: 'tag' },
  { label: 'Leave Type', route: 'leave-type.index', permission: 'can-view-leave-type', icon: 'tag' },
  { label: 'Holiday', route: 'holiday.index', permission: 'can-view-holiday', icon: 'calendar' },
  { label: 'Active User', route: 'active-user.index', permission: 'can-view-active-user', icon: 'activity' },
  { label: 'Admin', route: 'admin.index', permission: 'can-view-admin', icon: 'shield' },
  { label: 'Manager', route: 'manager.index', permission: 'can-view-manager', icon: 'users' },
  { label: 'User', route: 'user.index', permission: 'can-view-user', icon: 'user' },
  {
    label: 'Compliance Library', icon: 'folder', children: [
      { label: 'Document Repository', route: 'document-repository.index', permission: 'can-view-document-repository', icon: 'file' },
      { label: 'Assign Document', route: 'assign-document.index', permission: 'can-assign-document', icon: 'file' },
      { label: 'Assign History', route: 'document-assign-history.index', permission: 'can-view-document-assign-history', icon: 'file' },
    ],
  },
  {
    label: 'Expense', icon: 'wallet', children: [
      { label: 'Expense Category', route: 'category-expense.index', permission: 'can-view-expense-category', icon: 'tag' },
      // The list needs can-view-expense; someone who may only file claims gets the new-claim form instead (spec §6).
      { label: 'Expense', route: 'expense.index', permission: 'can-view-expense', icon: 'wallet' },
      { label: 'File an Expense', route: 'expense.create', permission: 'can-add-expense', icon: 'plus' },
      { label: 'Reimbursement', route: 'reimbursement-batch.index', permission: 'can-reimburse-expense', icon: 'wallet' },
    ],
  },
  {
    label: 'Partner', icon: 'handshake', children: [
      { label: 'Partner', route: 'ikk-partner.index', permission: 'can-view-partner', icon: 'handshake' },
      { label: 'Pre Billing', route: 'pre-billing.index', permission: 'can-view-pre-billing', icon: 'file' },
      { label: 'Invoice', route: 'partner-invoice.index', permission: 'can-view-partner-invoice', icon: 'file' },
    ],
  },
  { label: 'Position', route: 'position.index', permission: 'can-view-position', icon: 'briefcase' },
  {
    label: 'Candidate', icon: 'users', children: [
      { label: 'Candidate', route: 'candidate.index', permission: 'can-view-candidate', icon: 'user' },
      { label: 'Question Category', route: 'question-category.index', permission: 'can-view-question-category', icon: 'tag' },
      // Issue 28: interviews with their invitations and scorecards; the firm's offer letter templates.
      { label: 'Interview', route: 'interview.index', permission: 'can-view-interview', icon: 'calendar' },
      { label: 'Offer Letter Template', route: 'offer-template.index', permission: 'can-view-offer-template', icon: 'file' },
    ],
  },
  { label: 'My Documents', route: 'upload-assigned-document.index', permission: 'can-view-own-document', icon: 'upload' },
  { label: 'Time Sheet', route: 'time-sheet.index', permission: 'can-view-time-sheet', icon: 'clock' },
  { label: 'BGV Check', route: 'bgv-check.index', permission: 'can-view-bgv-check', icon: 'check' },
  { label: 'Deal Tracking', route: 'deal-tracking.index', permission: 'can-view-deal-tracking', icon: 'chart' },
  { label: 'Request', route: 'request.index', permission: 'can-view-request', icon: 'inbox' },
  {
    label: 'Onboarding', icon: 'users', children: [
      { label: 'Onboarding', route: 'onboarding.index', permission: 'can-view-onboarding', icon: 'user' },
      { label: 'Checklist Template', route: 'onboarding-template.index', permission: 'can-view-onboarding', icon: 'list' },
    ],
  },
  { label: 'Contract', route: 'contract.index', permission: 'can-view-contract', icon: 'file' },
  { label: 'Setting', route: 'setting.index', permission: 'can-view-setting', icon: 'cog' },
  { label: 'Audit Log', route: 'audit-log.index', isAdminOnly: true, icon: 'clock' },
  {
    label: 'Role & Permission', icon: 'key', children: [
      { label: 'Role', route: 'role.index', permission: 'can-view-role', icon: 'key' },
      { label: 'Permission', route: 'permission.index', permission: 'can-view-permission', icon: 'key' },
    ],
  },
];

/**
 * The spec's sidebar with the entries the definitions declare (`menu`, shared/resources/manifest.ts):
 * each in the group of its label, or else before Setting.
 */
export function withResourceEntries(menu: readonly MenuEntry[], entries: readonly GeneratedMenuEntry[]): MenuEntry[] {
  const placed = new Set(menu.flatMap((entry) => [entry.route, ...(entry.children ?? []).map((child) => child.route)]));
  const fresh = entries.filter(({ entry }) => !placed.has(entry.route));
  const grouped = menu.map((entry) => {
    const joining = fresh.filter(({ group }) => group && group === entry.label && entry.children);
    return joining.length ? { ...entry, children: [...entry.children!, ...joining.map((item) => item.entry)] } : entry;
  });
  const groups = new Set(menu.filter((entry) => entry.children).map((entry) => entry.label));
  const loose = fresh.filter(({ group }) => !group || !groups.has(group)).map((item) => item.entry);
  const setting = grouped.findIndex((entry) => entry.route === 'setting.index');
  const at = setting < 0 ? grouped.length : setting;
  return [...grouped.slice(0, at), ...loose, ...grouped.slice(at)];
}

/** The app sidebar. */
export const appMenu: MenuEntry[] = withResourceEntries(specMenu, resourceMenu);

/** The partner sidebar (spec §2): Dashboard, Pre Billing, Invoice (can-view-invoice). */
export const partnerMenu: MenuEntry[] = [
  { label: 'Dashboard', route: 'partner.dashboard', icon: 'home' },
  { label: 'Pre Billing', route: 'partner.pre-billing.index', icon: 'file' },
  { label: 'Invoice', route: 'partner.invoice.index', permission: 'can-view-invoice', icon: 'file' },
];

/**
 * spec §2: entries are filtered by permission; a parent is kept if it is permitted or has a
 * permitted child. `isBuilt` drops entries whose screen does not exist yet.
 */
export function filterMenu(menu: MenuEntry[], held: readonly string[], isBuilt: (routeName: string) => boolean,
  check: (held: readonly string[], expression?: string) => boolean, isAdmin = false): MenuEntry[] {
  return menu.flatMap((entry) => {
    if (entry.isAdminOnly && !isAdmin) return [];
    if (entry.children) {
      const children = filterMenu(entry.children, held, isBuilt, check, isAdmin);
      return children.length ? [{ ...entry, children }] : [];
    }
    if (entry.route && !isBuilt(entry.route)) return [];
    return check(held, entry.permission) ? [entry] : [];
  });
}
