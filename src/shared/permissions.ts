// Permission names of spec §2 and §6, plus can-add/edit/delete where screens create, edit or delete.
// The server seeds and enforces these; the client only hides what they refuse. A definition's own
// permissions need no line here: they come with it (resourcePermissions, generated).
import { resourcePermissions } from './generated/resources';

/** Areas with list, create, edit and delete screens (spec §2). */
const crudAreas = [
  'country', 'city', 'client', 'employee-type', 'admin', 'manager', 'user',
  'document-repository', 'expense', 'expense-category', 'partner', 'pre-billing',
  'partner-invoice', 'position', 'candidate', 'question-category', 'question',
  'time-sheet', 'deal-tracking', 'role', 'invoice', 'request',
  'onboarding', 'contract', 'announcement', 'leave-type', 'holiday',
] as const;

/** Issue 28 (decision 041): Approvals While Away, the delegation screen and its API. */
export const DELEGATE_PERMISSION = 'can-delegate-approvals';

/** Leave application and bgv-check use can-create-X instead of can-add-X (spec §2). */
const createAreas = ['leave-application', 'bgv-check'] as const;

/** View-only or single-purpose permissions named by the spec. */
const singlePermissions = [
  'can-view-dashboard', 'can-edit-profile', 'can-view-active-user', 'can-assign-document',
  'can-view-document-assign-history', 'can-view-own-document', 'can-view-setting',
  'can-edit-setting',
  // Issue 28: the permission list is a read-only catalogue of the names in this code (no add, edit or delete).
  'can-view-permission',
  // Deciding a workflow step (issue 9): a manager approves leave and the first step of an expense,
  // finance the later expense steps.
  'can-approve-leave-application', 'can-approve-expense', 'can-review-expense',
  // Issue 11: finance checks a partner's pre-billing against the time sheets (review), then approves it.
  'can-review-pre-billing', 'can-approve-pre-billing',
  // Issue 11: a partner invoice's manager step (the firm's account manager), then finance's final
  // approval and the payment.
  'can-approve-partner-invoice', 'can-pay-partner-invoice',
  // Issue 10: approving or rejecting a returned copy of a compliance document.
  'can-review-document',
  // Issue 21: finance pays approved expense claims in reimbursement batches and keeps people's bank details.
  'can-reimburse-expense',
  // Issue 28: finance approves or rejects a partner firm's new bank details (the old ones stay in force until then).
  'can-approve-partner-bank-details',
  // Issue 28: an interviewer fills the scorecard of an interview they are on (only theirs; the server checks).
  'can-submit-scorecard',
  // Issue 28 (decision 041): a manager hands their approvals to another manager while away (an admin for
  // any manager); the delegation routes check it, the service keeps who may give and receive.
  DELEGATE_PERMISSION,
  // Issue 28, the partner portal: a firm's admin login keeps the firm's profile and bank details and
  // invites and deactivates its colleagues' logins (its own firm only).
  ...partnerAdminPermissions(),
] as const;

function partnerAdminPermissions() {
  return ['can-edit-firm-profile', 'can-view-colleague', 'can-add-colleague', 'can-edit-colleague'] as const;
}

/** Permissions only a partner login can use (their routes are the portal's): never part of a staff role. */
export const partnerOnlyPermissions: readonly string[] = [
  'can-view-invoice', 'can-add-invoice', 'can-edit-invoice', 'can-delete-invoice', ...partnerAdminPermissions(),
];

/** The spec's permissions, then every other one a definition names (generated from the definitions). */
export const allPermissions: string[] = [...new Set([
  ...singlePermissions,
  ...crudAreas.flatMap((area) => [`can-view-${area}`, `can-add-${area}`, `can-edit-${area}`, `can-delete-${area}`]),
  ...createAreas.flatMap((area) => [`can-view-${area}`, `can-create-${area}`, `can-edit-${area}`, `can-delete-${area}`]),
  ...resourcePermissions,
])];

export const roleNames = ['admin', 'manager', 'user', 'finance', 'recruiter', 'account manager', 'partner', 'partner admin'] as const;
export type RoleName = (typeof roleNames)[number];

/**
 * Who is an admin (issue 20), the one check server and client share: whoever holds the admin role.
 * An admin account always holds it (the role named like its type); only an admin gives it to anyone.
 */
export const isAdmin = (holder: { roles: readonly string[] }): boolean => holder.roles.includes('admin');

/**
 * Whether an account is an admin's account by its type (`user_type` admin), which is narrower than
 * holding the admin role: the audit trail is for admin accounts only (decision 007), and only an admin
 * writes one (decision 004). Every check of either kind goes through these two functions.
 */
export const isAdminAccount = (user: object | null | undefined): boolean => !!user && 'user_type' in user && user.user_type === 'admin';

/**
 * Nobody grants what they do not hold (issue 20): a non-admin may give a role, or add to a role, only
 * permissions they hold themselves. The permissions of `wanted` the holder lacks; empty when it may.
 */
export const permissionsBeyond = (held: readonly string[], wanted: readonly string[]): string[] => wanted.filter((name) => !held.includes(name));

/** Which permissions each seeded role starts with. Admins can change this later (role screen). */
export const defaultRolePermissions: Record<RoleName, string[]> = {
  admin: allPermissions.filter((p) => !partnerOnlyPermissions.includes(p)),
  manager: [
    'can-view-dashboard', 'can-edit-profile', 'can-view-active-user', 'can-view-user',
    'can-view-leave-application', 'can-create-leave-application', 'can-edit-leave-application',
    'can-view-time-sheet', 'can-edit-time-sheet', 'can-view-own-document', 'can-view-expense',
    'can-add-expense', 'can-view-position', 'can-view-candidate', 'can-view-bgv-check',
    'can-view-deal-tracking', 'can-approve-leave-application', 'can-approve-expense',
    'can-view-leave-type', 'can-view-holiday', 'can-edit-expense',
    // The account manager of a partner firm takes its invoices' first step (scoped to the firms they manage),
    // and is told of and opens the firm's pre-billing statements those invoices bill (issue 20; same scope).
    'can-view-partner-invoice', 'can-approve-partner-invoice', 'can-view-pre-billing',
    // Issue 13: delivery and sales run background checks, deals and service requests.
    'can-create-bgv-check', 'can-edit-bgv-check', 'can-add-deal-tracking', 'can-edit-deal-tracking',
    'can-view-request', 'can-add-request', 'can-edit-request',
    // Issue 13: managers run the onboardings of their people and see the client contracts.
    'can-view-onboarding', 'can-add-onboarding', 'can-edit-onboarding', 'can-view-contract',
    // Issue 28: managers interview candidates: they see the interviews they are on and fill their scorecards.
    'can-view-interview', 'can-submit-scorecard',
    // Issue 28: a manager hands their approvals to another manager while away (decision 041).
    DELEGATE_PERMISSION,
  ],
  user: [
    'can-view-dashboard', 'can-edit-profile', 'can-view-leave-application',
    'can-create-leave-application', 'can-edit-leave-application', 'can-view-time-sheet', 'can-add-time-sheet',
    'can-view-own-document', 'can-view-expense', 'can-add-expense', 'can-edit-expense',
    // Issue 13: an engineer sees and works the service requests assigned to them.
    'can-view-request',
    // Issue 13: an onboarding task's assignee sees it and marks it done (scoped to their own tasks).
    'can-view-onboarding',
    // Issue 28: an engineer on an interview panel sees that interview and fills their scorecard (scoped to theirs).
    'can-view-interview', 'can-submit-scorecard',
  ],
  finance: [
    'can-view-dashboard', 'can-edit-profile', 'can-view-expense', 'can-add-expense',
    'can-edit-expense', 'can-view-expense-category', 'can-view-partner', 'can-view-pre-billing',
    'can-view-partner-invoice', 'can-edit-partner-invoice', 'can-review-expense',
    'can-review-pre-billing', 'can-approve-pre-billing', 'can-pay-partner-invoice',
    'can-reimburse-expense', 'can-approve-partner-bank-details',
  ],
  // Issue 22: the firm's other duties. A person holds the role of their account type (user, manager)
  // and, beside it, the role of a duty: these hold only what the duty adds.
  recruiter: [
    'can-view-dashboard', 'can-edit-profile',
    'can-view-position', 'can-add-position', 'can-edit-position',
    'can-view-candidate', 'can-add-candidate', 'can-edit-candidate',
    'can-view-question-category', 'can-add-question-category', 'can-edit-question-category',
    'can-view-question', 'can-add-question', 'can-edit-question',
    'can-view-bgv-check', 'can-create-bgv-check', 'can-edit-bgv-check',
    'can-view-onboarding', 'can-add-onboarding', 'can-edit-onboarding',
    'can-view-client',
    // Issue 28: interviews, scorecards and offer letters from the firm's templates.
    'can-view-interview', 'can-add-interview', 'can-edit-interview', 'can-submit-scorecard',
    'can-view-offer-template', 'can-add-offer-template', 'can-edit-offer-template',
  ],
  'account manager': [
    'can-view-dashboard', 'can-edit-profile',
    'can-view-client', 'can-add-client', 'can-edit-client',
    'can-view-deal-tracking', 'can-add-deal-tracking', 'can-edit-deal-tracking',
    'can-view-request', 'can-add-request', 'can-edit-request',
    'can-view-contract', 'can-add-contract', 'can-edit-contract',
    'can-view-position', 'can-view-candidate',
    // The first step of the invoices of the partner firms they manage (scoped like a manager's).
    'can-view-partner-invoice', 'can-approve-partner-invoice', 'can-view-pre-billing',
  ],
  partner: [
    'can-view-dashboard', 'can-edit-profile', 'can-view-pre-billing', 'can-add-pre-billing',
    'can-edit-pre-billing', 'can-view-invoice', 'can-add-invoice', 'can-edit-invoice',
  ],
  // Issue 28: held beside `partner` by the firm's admin logins (the first login of a firm is one).
  'partner admin': [...partnerAdminPermissions()],
};

// The check itself lives apart so the login screen's `core` chunk takes it without this catalogue.
export { hasPermission } from './permission-check';
