// The sidebars (spec §2): the entries the definitions declare, the screens of their own, and the filter by permission.
// Apart from the route table (routes.ts) because only the authenticated layouts draw a menu: the login
// screen's `core` chunk, which carries the route table for the guards, does not load them.
import { resourceMenu } from './generated/resources';
import type { GeneratedMenuEntry } from './resources/manifest';
import type { MenuEntry } from './routes';

export type { MenuEntry };

/**
 * The sidebar's groups (spec §2): a definition or a screen joins one by its label (`menu.group`). Orders
 * count in tens in the spec's sequence (Dashboard 10 ... Contract 250, Setting 900), so that an entry
 * can go between two; one without an order goes after the ordered entries, before Setting.
 */
export const menuGroups: readonly { label: string; icon: string; order: number }[] = [
  { label: 'Compliance Library', icon: 'folder', order: 140 },
  { label: 'Expense', icon: 'wallet', order: 150 },
  { label: 'Partner', icon: 'handshake', order: 160 },
  { label: 'Candidate', icon: 'users', order: 180 },
  { label: 'Onboarding', icon: 'users', order: 240 },
  { label: 'Role & Permission', icon: 'key', order: 920 },
];

/** Entries that open a screen of their own rather than a definition's list; the definitions declare theirs (`menu`). */
const screenEntries: readonly GeneratedMenuEntry[] = [
  { order: 10, entry: { label: 'Dashboard', route: 'dashboard', permission: 'can-view-dashboard', icon: 'home' } },
  { order: 30, entry: { label: 'Approvals While Away', route: 'delegation', permission: 'can-delegate-approvals', icon: 'users' } },
  { group: 'Compliance Library', order: 20, entry: { label: 'Assign Document', route: 'assign-document.index', permission: 'can-assign-document', icon: 'file' } },
  // Someone who may only file claims gets the new-claim form; the list needs can-view-expense (spec §6).
  { group: 'Expense', order: 30, entry: { label: 'File an Expense', route: 'expense.create', permission: 'can-add-expense', icon: 'plus' } },
  { order: 900, entry: { label: 'Setting', route: 'setting.index', permission: 'can-view-setting', icon: 'cog' } },
  { order: 910, entry: { label: 'Audit Log', route: 'audit-log.index', isAdminOnly: true, icon: 'clock' } },
];

const UNORDERED = 800;

/** The sidebar from placed entries: each in its group (a group without entries is left out), in order. */
export function placeMenu(groups: typeof menuGroups, placed: readonly GeneratedMenuEntry[]): MenuEntry[] {
  const inOrder = (entries: readonly GeneratedMenuEntry[]) =>
    [...entries].sort((a, b) => (a.order ?? UNORDERED) - (b.order ?? UNORDERED)).map((item) => item.entry);
  const named = new Set(groups.map((group) => group.label));
  const top = placed.filter((item) => !item.group || !named.has(item.group));
  const grouped = groups.flatMap(({ label, icon, order }) => {
    const children = inOrder(placed.filter((item) => item.group === label));
    return children.length ? [{ order, entry: { label, icon, children } }] : [];
  });
  return inOrder([...top, ...grouped]);
}

/** Every entry of the app sidebar, placed. */
export const appMenuEntries: readonly GeneratedMenuEntry[] = [...screenEntries, ...resourceMenu];

/** The app sidebar. */
export const appMenu: MenuEntry[] = placeMenu(menuGroups, appMenuEntries);

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
