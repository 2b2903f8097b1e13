// The route table of spec §2: every route with its name, path, permission and title.
// The client's router, sidebar and guards all read this one table.

/**
 * guest:    only for visitors; a logged-in account is sent to its dashboard (spec §4).
 * auth:     needs a token but no permission (verify-email, force-reset-password, access-denied).
 * app:      the authenticated layout; needs a token of the route's account type and its permission.
 * external: public; a logged-in user is not redirected away.
 */
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

export const routes: RouteDefinition[] = [
  // Main guest routes
  { name: 'login', path: '/', title: 'Login', kind: 'guest', account: 'app' },
  { name: 'forgot-password', path: '/forgot-password', title: 'Forgot Password', kind: 'guest', account: 'app' },
  { name: 'reset-password', path: '/password-reset/:token', title: 'Reset Password', kind: 'guest', account: 'app' },
  // Main auth-only routes without a permission check
  { name: 'verify-email', path: '/verify-email', title: 'Verify Email', kind: 'auth', account: 'app' },
  { name: 'force-reset-password', path: '/force-reset-password', title: 'Reset Password', kind: 'auth', account: 'app' },
  { name: 'access-denied', path: '/access-denied', title: 'Access Denied', kind: 'auth', account: 'app' },
  // Public external routes
  { name: 'user-manual', path: '/user-manual', title: 'PMO User Manual', kind: 'external', account: 'app' },
  { name: 'add-candidate-details', path: '/add-candidate-details', title: 'Candidate Details', kind: 'external', account: 'app' },
  { name: 'candidate-assessment', path: '/candidate/:token/assessment', title: 'Assessment', kind: 'external', account: 'app' },
  { name: 'candidate-assessment-window', path: '/candidate/assessment/:token', title: 'Assessment', kind: 'external', account: 'app' },

  // Main authenticated routes
  app('dashboard', '/dashboard', 'Dashboard', 'can-view-dashboard'),
  app('profile', '/profile', 'Profile', 'can-edit-profile'),
  app('notification.index', '/notification', 'Notifications'),
  // Who is away, month by month (issue 9); matchRoute prefers it to leave-application.show's /:id.
  app('leave-application.calendar', '/leave-application/calendar', 'Leave Calendar', 'can-view-leave-application'),
  ...crud('leave-application', '/leave-application', 'Leave Application', perms('leave-application', 'create')),
  ...crud('leave-type', '/leave-type', 'Leave Type', perms('leave-type')),
  ...crud('holiday', '/holiday', 'Holiday', perms('holiday')),
  ...crud('country', '/country', 'Country', perms('country')),
  ...crud('city', '/city', 'City', perms('city')),
  ...crud('client', '/client', 'Client', perms('client')),
  ...crud('employee-type', '/employee-type', 'Employee Type', perms('employee-type')),
  app('active-user.index', '/active-user', 'Active User', 'can-view-active-user'),
  ...crud('admin', '/admin', 'Admin', perms('admin')),
  ...crud('manager', '/manager', 'Manager', perms('manager')),
  ...crud('user', '/user', 'User', perms('user')),
  app('document-repository.index', '/document-repository', 'Document Repository', 'can-view-document-repository'),
  app('assign-document.index', '/document-assign', 'Assign Document', 'can-assign-document'),
  app('document-assign-history.index', '/document-assign-history', 'Document Assign History', 'can-view-document-assign-history'),
  // Issue 10: a library document with its versions, and an assignment with its timeline.
  app('document-repository.show', '/document-repository/:id', 'Document', 'can-view-document-repository'),
  // The person an assignment is for opens it too (the server shows them their own): the link of the
  // notifications about their copy leads here (issue 20).
  app('document-assign-history.show', '/document-assign-history/:id', 'Document Assignment', 'can-view-document-assign-history|can-view-own-document'),
  ...crud('expense', '/expense', 'Expense', perms('expense')),
  // Issue 21: finance pays approved claims in batches (created from its own screen, never edited).
  app('reimbursement-batch.index', '/expense/reimbursement', 'Reimbursement', 'can-reimburse-expense'),
  app('reimbursement-batch.create', '/expense/reimbursement/create', 'New Reimbursement Batch', 'can-reimburse-expense'),
  app('reimbursement-batch.show', '/expense/reimbursement/:id', 'Reimbursement Batch', 'can-reimburse-expense'),
  ...crud('category-expense', '/expense-category', 'Expense Category', perms('expense-category')),
  ...crud('ikk-partner', '/ikk-partner', 'Partner', perms('partner')),
  app('pre-billing.index', '/ikk-partner/pre-billing', 'Pre Billing', 'can-view-pre-billing'),
  app('pre-billing.show', '/ikk-partner/pre-billing/:id', 'Pre Billing', 'can-view-pre-billing'),
  app('partner-invoice.index', '/ikk-partner/invoice', 'Partner Invoice', 'can-view-partner-invoice'),
  app('partner-invoice.show', '/ikk-partner/invoice/:id', 'Partner Invoice', 'can-view-partner-invoice'),
  app('partner-invoice.edit', '/ikk-partner/invoice/:id/edit', 'Edit Partner Invoice', 'can-edit-partner-invoice'),
  ...crud('position', '/position', 'Position', perms('position')),
  // Issue 12: candidates by hiring stage; matchRoute prefers it to candidate.show's /:id.
  app('candidate.board', '/candidate/board', 'Candidate Board', 'can-view-candidate'),
  ...crud('candidate', '/candidate', 'Candidate', perms('candidate')),
  app('candidate.assessments', '/candidate/:id/assessments', 'Assessments', 'can-view-candidate'),
  app('candidate.send-assessment-link', '/candidate/:id/send-assessment-link', 'Send Assessment Link', 'can-edit-candidate'),
  app('question-category.index', '/question-category', 'Question Category', 'can-view-question-category'),
  app('question-category.create', '/question-category/create', 'Create Question Category', 'can-add-question-category'),
  app('question-category.edit', '/question-category/:id/edit', 'Edit Question Category', 'can-edit-question-category'),
  // Issue 22: the import screens of the definitions that declare an importer (people, cities, clients,
  // positions, the question bank), under the permission that adds one.
  app('admin.import', '/admin/import', 'Import Admins', 'can-add-admin'),
  app('manager.import', '/manager/import', 'Import Managers', 'can-add-manager'),
  app('user.import', '/user/import', 'Import Users', 'can-add-user'),
  app('city.import', '/city/import', 'Import Cities', 'can-add-city'),
  app('client.import', '/client/import', 'Import Clients', 'can-add-client'),
  app('position.import', '/position/import', 'Import Positions', 'can-add-position'),
  app('question.import', '/question/import', 'Import Questions', 'can-add-question'),
  app('question-category.question', '/question-category/:id/question', 'Questions', 'can-view-question'),
  app('question.create', '/question/:category_id/create', 'Create Question', 'can-add-question'),
  app('question.edit', '/question/:category_id/:id/edit', 'Edit Question', 'can-edit-question'),
  app('question.show', '/question/:id', 'Question', 'can-view-question'),
  app('upload-assigned-document.index', '/document', 'My Documents', 'can-view-own-document'),
  app('time-sheet.index', '/time-sheet', 'Time Sheet', 'can-view-time-sheet'),
  ...crud('bgv-check', '/bgv-check', 'BGV Check', perms('bgv-check', 'create')),
  ...crud('deal-tracking', '/deal-tracking', 'Deal Tracking', perms('deal-tracking')),
  ...crud('request', '/request', 'Request', perms('request')),
  ...crud('onboarding', '/onboarding', 'Onboarding', perms('onboarding')),
  app('onboarding-template.index', '/onboarding-template', 'Checklist Template', 'can-view-onboarding'),
  ...crud('contract', '/contract', 'Contract', perms('contract')),
  app('setting.index', '/setting', 'Setting', 'can-view-setting'),
  app('role.index', '/role', 'Role', 'can-view-role'),
  app('permission.index', '/permission', 'Permission', 'can-view-permission'),
  // Issue 20: every change across the product. Admin accounts only, which no permission expresses:
  // the screen and its API check the account's type (the menu entry is isAdminOnly).
  app('audit-log.index', '/audit-log', 'Audit Log'),

  // Partner routes (spec §2)
  { name: 'partner.login', path: '/partner/login', title: 'Partner Login', kind: 'guest', account: 'partner' },
  { name: 'partner.forgot-password', path: '/partner/forgot-password', title: 'Forgot Password', kind: 'guest', account: 'partner' },
  { name: 'partner.reset-password', path: '/partner/password-reset/:token', title: 'Reset Password', kind: 'guest', account: 'partner' },
  { name: 'partner.verify-email', path: '/partner/verify-email', title: 'Verify Email', kind: 'auth', account: 'partner' },
  { name: 'partner.force-reset-password', path: '/partner/force-reset-password', title: 'Reset Password', kind: 'auth', account: 'partner' },
  partner('partner.dashboard', '/dashboard', 'Dashboard'),
  partner('partner.profile', '/profile', 'Profile'),
  partner('partner.notification.index', '/notification', 'Notifications'),
  partner('partner.pre-billing.index', '/pre-billing', 'Pre Billing'),
  partner('partner.pre-billing.create', '/pre-billing/create', 'Create Pre Billing'),
  partner('partner.pre-billing.show', '/pre-billing/:id', 'Pre Billing'),
  partner('partner.pre-billing.edit', '/pre-billing/:id/edit', 'Edit Pre Billing'),
  partner('partner.invoice.index', '/invoice', 'Invoice', 'can-view-invoice'),
  partner('partner.invoice.create', '/invoice/create', 'Create Invoice', 'can-view-invoice'),
  partner('partner.invoice.show', '/invoice/:id', 'Invoice', 'can-view-invoice'),
  partner('partner.invoice.edit', '/invoice/:id/edit', 'Edit Invoice', 'can-view-invoice'),
];

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

/** The app sidebar (spec §2 named menu routes, grouped sections). */
export const appMenu: MenuEntry[] = [
  { label: 'Dashboard', route: 'dashboard', permission: 'can-view-dashboard', icon: 'home' },
  { label: 'Leave Application', route: 'leave-application.index', permission: 'can-view-leave-application', icon: 'calendar' },
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
