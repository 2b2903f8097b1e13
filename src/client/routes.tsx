// Route names of src/shared/routes.ts -> lazily loaded screens. A route without an entry here is
// "not built": absent from the menus (filterMenu's isBuilt) and answered with not-found.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AccountType } from '../shared/routes';

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
const VerifyEmail = lazy(() => import('./features/auth/verify-email'));
const AccessDenied = lazy(() => import('./features/errors/access-denied'));
const Dashboard = lazy(() => import('./features/dashboard/dashboard'));
const Profile = lazy(() => import('./features/profile/profile'));
const NotificationList = lazy(() => import('./features/notification/notification-list'));
// Lists, forms and detail pages generated from src/shared/resources (docs/resources.md); the generic
// pieces live in ui/resources so feature screens (time sheets) can build on them.
const ResourceScreen = lazy(() => import('./features/resources/resource-screen'));

const crud = (area: string) => [`${area}.index`, `${area}.create`, `${area}.show`, `${area}.edit`];
/** Route names rendered by ResourceScreen; tests/unit/client-resource-machinery.test.ts checks they match the definitions. */
export const resourceRouteNames = [
  ...['country', 'city', 'client', 'employee-type', 'category-expense', 'expense', 'position', 'admin', 'manager', 'user'].flatMap(crud),
  ...['leave-application', 'leave-type', 'holiday'].flatMap(crud),
  'question-category.index', 'question-category.create', 'question-category.edit', 'question-category.question',
  'question.create', 'question.edit', 'question.show',
  'active-user.index', 'role.index', 'permission.index',
  // Issue 11: partners and what they bill, in the main application and on the partner portal.
  ...crud('ikk-partner'), 'pre-billing.index', 'pre-billing.show', 'partner-invoice.index', 'partner-invoice.show', 'partner-invoice.edit',
  ...crud('partner.pre-billing'), ...crud('partner.invoice'),
];
const Setting = lazy(() => import('./features/setting/setting'));
const TimeSheet = lazy(() => import('./features/time-sheet/time-sheet'));
const LeaveCalendar = lazy(() => import('./features/leave/leave-calendar'));

export const NotFound = lazy(() => import('./features/errors/not-found'));

export const screens: Record<string, ScreenEntry> = {
  login: { component: Login, layout: 'guest' },
  'forgot-password': { component: ForgotPassword, layout: 'guest' },
  'reset-password': { component: ResetPassword, layout: 'guest' },
  'force-reset-password': { component: ForceResetPassword, layout: 'guest' },
  'verify-email': { component: VerifyEmail, layout: 'guest' },
  'access-denied': { component: AccessDenied, layout: 'plain' },
  dashboard: { component: Dashboard, layout: 'app' },
  profile: { component: Profile, layout: 'app' },
  'notification.index': { component: NotificationList, layout: 'app' },
  ...Object.fromEntries(resourceRouteNames.map((name) => [name, { component: ResourceScreen, layout: 'app' as const }])),
  'setting.index': { component: Setting, layout: 'app' },
  'time-sheet.index': { component: TimeSheet, layout: 'app' },
  'leave-application.calendar': { component: LeaveCalendar, layout: 'app' },

  'partner.login': { component: Login, layout: 'guest' },
  'partner.forgot-password': { component: ForgotPassword, layout: 'guest' },
  'partner.reset-password': { component: ResetPassword, layout: 'guest' },
  'partner.force-reset-password': { component: ForceResetPassword, layout: 'guest' },
  'partner.verify-email': { component: VerifyEmail, layout: 'guest' },
  'partner.dashboard': { component: Dashboard, layout: 'app' },
  'partner.profile': { component: Profile, layout: 'app' },
  'partner.notification.index': { component: NotificationList, layout: 'app' },
};

export const isBuilt = (routeName: string) => Object.hasOwn(screens, routeName);
