// The route table of spec §2: every route with its name, path, permission and title.
// The client's router, sidebar and guards all read this one table.

/**
 * guest:    only for visitors; a logged-in account is sent to its dashboard (spec §4).
 * auth:     needs a token but no permission (verify-email, force-reset-password, access-denied).
 * app:      the authenticated layout; needs a token of the route's account type and its permission.
 * external: public; a logged-in user is not redirected away.
 */
import { resourceRoutes } from './generated/resources';

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

const isIdParameter = (segment: string) => segment === ':id' || segment.endsWith('_id');

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
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(parts[i]);
        // A record's id is a number: /expense/category is no page, not a record that cannot be read.
        return isIdParameter(segment) ? /^\d+$/.test(parts[i]) : parts[i] !== '';
      }
      score += 1;
      return segment === parts[i];
    });
    if (matches && (!best || score > best.score)) best = { route, params, score };
  }
  return best && { route: best.route, params: best.params };
}
