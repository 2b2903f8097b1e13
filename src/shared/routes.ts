// The route table of spec §2: every route with its name, path, permission and title.
// The client's router, sidebar and guards all read this one table.

/**
 * guest:    only for visitors; a logged-in account is sent to its dashboard (spec §4).
 * auth:     needs a token but no permission (verify-email, force-reset-password, access-denied).
 * app:      the authenticated layout; needs a token of the route's account type and its permission.
 * external: public; a logged-in user is not redirected away.
 */
import { resourceMenu, resourceRoutes } from './generated/resources';
import type { GeneratedMenuEntry } from './resources/manifest';

export type RouteKind = 'guest' | 'auth' | 'app' | 'external';
export type AccountType = 'app' | 'partner';

export interface RouteDefinition {
  name: string;
  path: string;
  title: string;
  kind: RouteKind;
  account: AccountType;
  permission?: string;
}

export interface MenuEntry {
  label: string;
  /** The route opened by the entry; a group has children instead. */
  route?: string;
  permission?: string;
  /** Name of an icon in the client's icon set. */
  icon: string;
  children?: MenuEntry[];
  /** Only for admin accounts (user_type admin), whatever permissions a role gives (the audit log). */
  isAdminOnly?: boolean;
}

const app = (name: string, path: string, title: string, permission?: string): RouteDefinition =>
  ({ name, path, title, kind: 'app', account: 'app', permission });
const partner = (name: string, path: string, title: string, permission?: string): RouteDefinition =>
  ({ name, path: `/partner${path}`, title, kind: 'app', account: 'partner', permission });

/** Index, create, show and edit routes of one area, named `${area}.index` etc. */
function crud(area: string, path: string, title: string, permissions: { view: string; add?: string; edit?: string }) {
  return [
    app(`${area}.index`, path, title, permissions.view),
    app(`${area}.create`, `${path}/create`, `Create ${title}`, permissions.add ?? permissions.view),
    app(`${area}.show`, `${path}/:id`, title, permissions.view),
    app(`${area}.edit`, `${path}/:id/edit`, `Edit ${title}`, permissions.edit ?? permissions.view),
  ];
}
const perms = (x: string, create = 'add') =>
  ({ view: `can-view-${x}`, add: `can-${create}-${x}`, edit: `can-edit-${x}` });

/**
 * The routes the spec names, as it names them; the definitions' other screen routes follow from them
 * (shared/resources/manifest.ts, generated into `resourceRoutes`).
 */
export const specRoutes: RouteDefinition[] = [
  // Main guest routes
  { name: 'login', path: '/', title: 'Login', kind: 'guest', account: 'app' },
  { name: 'forgot-password', path: '/forgot-password', title: 'Forgot Password', kind: 'guest', account: 'app' },
  { name: 'reset-password', path: '/password-reset/:token', title: 'Reset Password', kind: 'guest', account: 'app' },
  // Main auth-only routes without a permission check
  { name: 'verify-email', path: '/verify-email', title: 'Verify Email', kind: 'auth', account: 'app' },
  { name: 'force-reset-password', path: '/force-reset-password', title: 'Reset Password', kind: 'auth', account: 'app' },
  // Issue 29: where a role that asks for a second factor sends its holders before anything else.
  { name: 'two-factor-setup', path: '/two-factor-setup', title: 'Set Up Two-Factor Sign-In', kind: 'auth', account: 'app' },
  { name: 'access-denied', path: '/access-denied', title: 'Access Denied', kind: 'auth', account: 'app' },
  // Public external routes
  { name: 'user-manual', path: '/user-manual', title: 'PMO User Manual', kind: 'external', account: 'app' },
  { name: 'add-candidate-details', path: '/add-candidate-details', title: 'Candidate Details', kind: 'external', account: 'app' },
  { name: 'candidate-assessment', path: '/candidate/:token/assessment', title: 'Assessment', kind: 'external', account: 'app' },
  // Issue 28: the candidate reads their offer letter and accepts or declines it (the link is the permission).
  { name: 'offer-letter', path: '/offer-letter', title: 'Offer Letter', kind: 'external', account: 'app' },
  { name: 'candidate-assessment-window', path: '/candidate/assessment/:token', title: 'Assessment', kind: 'external', account: 'app' },

  // Main authenticated routes. A definition's list, form and detail routes at their default paths
  // (`/{name}`, `/{name}/create`, `/{name}/:id`, `/{name}/:id/edit`, `/{name}/import`) are not
  // written here: they follow from the definition (resourceRoutes). Here are the other screens and
  // the routes whose spec path or title differs from the default.
  app('dashboard', '/dashboard', 'Dashboard', 'can-view-dashboard'),
  app('profile', '/profile', 'Profile', 'can-edit-profile'),
  app('notification.index', '/notification', 'Notifications'),
  // Who is away, month by month (issue 9); matchRoute prefers it to leave-application.show's /:id.
  app('leave-application.calendar', '/leave-application/calendar', 'Leave Calendar', 'can-view-leave-application'),
  // Issue 28: a person's leave ledger (accrued, carried, expired, adjusted, taken); before the show route too.
  app('leave-application.ledger', '/leave-application/ledger', 'Leave Ledger', 'can-view-leave-application'),
  // Issue 28 (decision 041): a manager hands their approvals to another manager for a range of days.
  app('delegation', '/delegation', 'Approvals While Away', 'can-delegate-approvals'),
  app('document-repository.index', '/document-repository', 'Document Repository', 'can-view-document-repository'),
  app('assign-document.index', '/document-assign', 'Assign Document', 'can-assign-document'),
  app('document-assign-history.index', '/document-assign-history', 'Document Assign History', 'can-view-document-assign-history'),
  // Issue 21: finance pays approved claims in batches (created from its own screen, never edited).
  app('reimbursement-batch.index', '/expense/reimbursement', 'Reimbursement', 'can-reimburse-expense'),
  app('reimbursement-batch.create', '/expense/reimbursement/create', 'New Reimbursement Batch', 'can-reimburse-expense'),
  app('reimbursement-batch.show', '/expense/reimbursement/:id', 'Reimbursement Batch', 'can-reimburse-expense'),
  app('pre-billing.index', '/ikk-partner/pre-billing', 'Pre Billing', 'can-view-pre-billing'),
  app('pre-billing.show', '/ikk-partner/pre-billing/:id', 'Pre Billing', 'can-view-pre-billing'),
  app('partner-invoice.index', '/ikk-partner/invoice', 'Partner Invoice', 'can-view-partner-invoice'),
  app('partner-invoice.show', '/ikk-partner/invoice/:id', 'Partner Invoice', 'can-view-partner-invoice'),
  app('partner-invoice.edit', '/ikk-partner/invoice/:id/edit', 'Edit Partner Invoice', 'can-edit-partner-invoice'),
  // Issue 12: candidates by hiring stage; matchRoute prefers it to candidate.show's /:id.
  app('candidate.board', '/candidate/board', 'Candidate Board', 'can-view-candidate'),
  app('candidate.assessments', '/candidate/:id/assessments', 'Assessments', 'can-view-candidate'),
  app('candidate.send-assessment-link', '/candidate/:id/send-assessment-link', 'Send Assessment Link', 'can-edit-candidate'),
  app('question-category.question', '/question-category/:id/question', 'Questions', 'can-view-question'),
  app('question.create', '/question/:category_id/create', 'Create Question', 'can-add-question'),
  app('question.edit', '/question/:category_id/:id/edit', 'Edit Question', 'can-edit-question'),
  app('upload-assigned-document.index', '/document', 'My Documents', 'can-view-own-document'),
  ...crud('deal-tracking', '/deal-tracking', 'Deal Tracking', perms('deal-tracking')),
  app('setting.index', '/setting', 'Setting', 'can-view-setting'),
  // Issue 20: every change across the product. Admin accounts only, which no permission expresses:
  // the screen and its API check the account's type (the menu entry is isAdminOnly).
  app('audit-log.index', '/audit-log', 'Audit Log'),

  // Partner routes (spec §2)
  { name: 'partner.login', path: '/partner/login', title: 'Partner Login', kind: 'guest', account: 'partner' },
  { name: 'partner.forgot-password', path: '/partner/forgot-password', title: 'Forgot Password', kind: 'guest', account: 'partner' },
  { name: 'partner.reset-password', path: '/partner/password-reset/:token', title: 'Reset Password', kind: 'guest', account: 'partner' },
  { name: 'partner.verify-email', path: '/partner/verify-email', title: 'Verify Email', kind: 'auth', account: 'partner' },
  { name: 'partner.force-reset-password', path: '/partner/force-reset-password', title: 'Reset Password', kind: 'auth', account: 'partner' },
  { name: 'partner.two-factor-setup', path: '/partner/two-factor-setup', title: 'Set Up Two-Factor Sign-In', kind: 'auth', account: 'partner' },
  partner('partner.dashboard', '/dashboard', 'Dashboard'),
  partner('partner.profile', '/profile', 'Profile'),
  partner('partner.notification.index', '/notification', 'Notifications'),
  partner('partner.pre-billing.index', '/pre-billing', 'Pre Billing'),
  partner('partner.pre-billing.create', '/pre-billing/create', 'Create Pre Billing'),
  partner('partner.pre-billing.show', '/pre-billing/:id', 'Pre Billing'),
  partner('partner.pre-billing.edit', '/pre-billing/:id/edit', 'Edit Pre Billing'),
  partner('partner.invoice.create', '/invoice/create', 'Create Invoice', 'can-view-invoice'),
  partner('partner.invoice.edit', '/invoice/:id/edit', 'Edit Invoice', 'can-view-invoice'),
];

/** Every route: the spec's and those the definitions add. */
export const routes: readonly RouteDefinition[] = [...specRoutes, ...resourceRoutes];

export const routesByName: Record<string, RouteDefinition> = Object.fromEntries(routes.map((r) => [r.name, r]));

/** Builds a path from a route name and its parameters: routePath('city.edit', {id: 3}) -> /city/3/edit */
export function routePath(name: string, params: Record<string, string | number> = {}): string {
  const route = routesByName[name];
  if (!route) throw new Error(`Unknown route ${name}`);
  return route.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}

/** Finds the route matching a pathname; static segments win over parameters (/city/create before /city/:id). */
export function matchRoute(pathname: string): { route: RouteDefinition; params: Record<string, string> } | null {
  const clean = pathname.replace(/\/+$/, '') || '/';
  let best: { route: RouteDefinition; params: Record<string, string>; score: number } | null = null;
  for (const route of routes) {
    const pattern = route.path.split('/');
    const parts = clean.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    const matches = pattern.every((segment, i) => {
      if (segment.startsWith(':')) { params[segment.slice(1)] = decodeURIComponent(parts[i]); return parts[i] !== ''; }
      score += 1;
      return segment === parts[i];
    });
    if (matches && (!best || score > best.score)) best = { route, params, score };
  }
  return best && { route: best.route, params: best.params };
}

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
