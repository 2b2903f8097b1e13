// Route names of src/shared/routes.ts -> lazily loaded screens. A route without an entry here is
// "not built": absent from the menus (filterMenu's isBuilt) and answered with not-found. Every route
// a definition names has one (resourceRouteNames); the entries written here are the other screens.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { resourceScreenRoutes } from '../shared/generated/resources';
import { routes, type AccountType } from '../shared/routes';

export interface ScreenProps {
  account: AccountType;
  params: Record<string, string>;
  routeName: string;
}

/** guest: the guest layout; plain: a bare centered page; app: the authenticated layout of the route's account type. */
export type LayoutKind = 'guest' | 'plain' | 'app';

interface ScreenEntry { component: LazyExoticComponent<ComponentType<ScreenProps>>; layout: LayoutKind }

const Login = lazy(() => import('./features/auth/login'));
const ForgotPassword = lazy(() => import('./features/auth/forgot-password'));
const ResetPassword = lazy(() => import('./features/auth/reset-password'));
const ForceResetPassword = lazy(() => import('./features/auth/force-reset-password'));
const TwoFactorSetup = lazy(() => import('./features/auth/two-factor'));
const VerifyEmail = lazy(() => import('./features/auth/verify-email'));
const AccessDenied = lazy(() => import('./features/errors/access-denied'));
const Dashboard = lazy(() => import('./features/dashboard/dashboard'));
const Profile = lazy(() => import('./features/profile/profile'));
const NotificationList = lazy(() => import('./features/notification/notification-list'));
// Lists, forms and detail pages generated from src/shared/resources (docs/resources.md); the generic
// pieces live in ui/resources so feature screens (time sheets) can build on them.
const ResourceScreen = lazy(() => import('./features/resources/resource-screen'));

/**
 * Route names rendered by ResourceScreen: every route a definition names (generated from the
 * definitions, so the login bundle does not load them; docs/resources.md). A screen of its own
 * below (the holidays list, the time sheets) takes the route over.
 */
export const resourceRouteNames: readonly string[] = resourceScreenRoutes;
const Setting = lazy(() => import('./features/setting/setting'));
const TimeSheet = lazy(() => import('./features/time-sheet/time-sheet'));
const LeaveCalendar = lazy(() => import('./features/leave/leave-calendar'));
const LeaveLedger = lazy(() => import('./features/leave/leave-ledger'));
const Holidays = lazy(() => import('./features/holiday/holidays'));
// Issue 12: the candidates' board by hiring stage and the public candidate form.
const CandidateBoard = lazy(() => import('./features/candidate/candidate-board'));
const CandidateFormPage = lazy(() => import('./features/candidate/candidate-form-page'));
// Issue 28: the candidate's offer letter, answered with their typed name.
const OfferLetterPage = lazy(() => import('./features/candidate/offer-letter-page'));
// Issue 12: timed online assessments (the recruiter's send and results screens, the candidate's public pages).
const SendAssessment = lazy(() => import('./features/assessment/send-assessment'));
const AssessmentResults = lazy(() => import('./features/assessment/assessment-results'));
const AssessmentStart = lazy(() => import('./features/assessment/assessment-start'));
const AssessmentWindow = lazy(() => import('./features/assessment/assessment-window'));
const AssignDocument = lazy(() => import('./features/compliance/assign-document'));
const MyDocuments = lazy(() => import('./features/compliance/my-documents'));
// Issue 13: the user manual, public, rendered from docs/manual at build time.
// Issue 21: ticking approved claims into a reimbursement batch.
const NewReimbursementBatch = lazy(() => import('./features/resources/reimbursement').then((m) => ({ default: m.NewBatch })));
const UserManual = lazy(() => import('./features/manual/user-manual'));

// Issue 22: records in bulk from a CSV or XLSX file, for every definition that declares an importer.
const ImportScreen = lazy(() => import('./features/import/import-screen'));
/** The definitions' import screens: every `${name}.import` route of shared/routes.ts (checked against the definitions by tests/unit/import-routes.test.ts). */
export const importRouteNames = routes.map((route) => route.name).filter((name) => name.endsWith('.import'));

// Issue 20: the admin's audit log.
const Delegation = lazy(() => import('./features/delegation/delegation'));
const AuditLog = lazy(() => import('./features/audit/audit-log'));

export const NotFound = lazy(() => import('./features/errors/not-found'));

export const screens: Record<string, ScreenEntry> = {
  login: { component: Login, layout: 'guest' },
  'forgot-password': { component: ForgotPassword, layout: 'guest' },
  'reset-password': { component: ResetPassword, layout: 'guest' },
  'force-reset-password': { component: ForceResetPassword, layout: 'guest' },
  'two-factor-setup': { component: TwoFactorSetup, layout: 'guest' },
  'verify-email': { component: VerifyEmail, layout: 'guest' },
  'access-denied': { component: AccessDenied, layout: 'plain' },
  dashboard: { component: Dashboard, layout: 'app' },
  profile: { component: Profile, layout: 'app' },
  'notification.index': { component: NotificationList, layout: 'app' },
  ...Object.fromEntries(resourceRouteNames.map((name) => [name, { component: ResourceScreen, layout: 'app' as const }])),
  'setting.index': { component: Setting, layout: 'app' },
  ...Object.fromEntries(importRouteNames.map((name) => [name, { component: ImportScreen, layout: 'app' as const }])),
  'audit-log.index': { component: AuditLog, layout: 'app' },
  delegation: { component: Delegation, layout: 'app' },
  'time-sheet.index': { component: TimeSheet, layout: 'app' },
  'reimbursement-batch.create': { component: NewReimbursementBatch, layout: 'app' },
  'leave-application.calendar': { component: LeaveCalendar, layout: 'app' },
  'leave-application.ledger': { component: LeaveLedger, layout: 'app' },
  'holiday.index': { component: Holidays, layout: 'app' },
  'candidate.board': { component: CandidateBoard, layout: 'app' },
  'add-candidate-details': { component: CandidateFormPage, layout: 'plain' },
  'offer-letter': { component: OfferLetterPage, layout: 'plain' },
  'candidate.send-assessment-link': { component: SendAssessment, layout: 'app' },
  'candidate.assessments': { component: AssessmentResults, layout: 'app' },
  'candidate-assessment': { component: AssessmentStart, layout: 'plain' },
  'candidate-assessment-window': { component: AssessmentWindow, layout: 'plain' },
  'assign-document.index': { component: AssignDocument, layout: 'app' },
  'upload-assigned-document.index': { component: MyDocuments, layout: 'app' },
  'user-manual': { component: UserManual, layout: 'plain' },

  'partner.login': { component: Login, layout: 'guest' },
  'partner.forgot-password': { component: ForgotPassword, layout: 'guest' },
  'partner.reset-password': { component: ResetPassword, layout: 'guest' },
  'partner.force-reset-password': { component: ForceResetPassword, layout: 'guest' },
  'partner.two-factor-setup': { component: TwoFactorSetup, layout: 'guest' },
  'partner.verify-email': { component: VerifyEmail, layout: 'guest' },
  'partner.dashboard': { component: Dashboard, layout: 'app' },
  'partner.profile': { component: Profile, layout: 'app' },
  'partner.notification.index': { component: NotificationList, layout: 'app' },
};

export const isBuilt = (routeName: string) => Object.hasOwn(screens, routeName);
