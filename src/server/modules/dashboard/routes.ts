// Dashboard figures (cards) and panels (app-dashboard.ts) of the main application; the partner portal's (partner.ts).
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/accounts';
import { positions } from '../../db/schema/master-data';
import { notifications } from '../../db/schema/notifications';
import { requireAccount } from '../../plugins/auth';
import { ACTIVE_USER_MINUTES } from '../../../shared/resources/user';
import { appDashboardResponse, partnerDashboardResponse } from '../../../shared/schemas/dashboard';
import { appDashboardPanels } from './app-dashboard';
import { countedByKeeping, countedInBatch } from './kept-counts';
import { partnerDashboard } from './partner';
import { engineerHome } from './mine';
import { homeResponse } from '../../../shared/schemas/home';

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/dashboard', { config: { auth: 'app', permission: 'can-view-dashboard' }, schema: { response: { 200: appDashboardResponse } } }, async (request) => {
    const account = requireAccount(request);
    // Every figure and panel asked for at once (issue 27): the counts among them are read in one statement.
    const userTypes = (['admin', 'manager', 'user'] as const).filter((userType) => account.permissions.includes(`can-view-${userType}`));
    const [unread, byType, active, openPositions, panels] = await Promise.all([
      countedInBatch(app.db, notifications, and(
        eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, account.id), isNull(notifications.read_at)), request),
      // From the counts kept per account type and status (kept-counts.ts); each figure only for those who may open its list.
      userTypes.length ? countedByKeeping(app.db, 'user', and(eq(users.status, 'active'), inArray(users.user_type, userTypes)), 'user_type', request) as Promise<{ value: unknown; count: number }[]> : null,
      account.permissions.includes('can-view-active-user')
        ? countedInBatch(app.db, users, gt(users.last_activity_at, new Date(Date.now() - ACTIVE_USER_MINUTES * 60_000)), request)
        : null,
      account.permissions.includes('can-view-position') ? countedByKeeping(app.db, 'position', eq(positions.status, 'open'), undefined, request) : null,
      appDashboardPanels(request),
    ]);
    const data: Record<string, unknown> = { unread_notifications: unread };
    // Zero included: a fresh install has no managers yet.
    if (byType) for (const userType of userTypes) data[`${userType}s`] = byType.find((row) => row.value === userType)?.count ?? 0;
    if (active !== null) data.active_users = active;
    if (openPositions !== null) data.open_positions = openPositions;
    return { data: { ...data, ...panels } };
  });

  // Issue 28: the engineer's home, their own records in one answer (mine.ts).
  app.get('/dashboard/mine', { config: { auth: 'app', permission: 'can-view-dashboard' }, schema: { response: { 200: homeResponse } } },
    async (request) => ({ data: await engineerHome(app.db, requireAccount(request)) }));

  app.get('/partner/dashboard', { config: { auth: 'partner' }, schema: { response: { 200: partnerDashboardResponse } } }, async (request) => ({ data: await partnerDashboard(app.db, requireAccount(request)) }));
}
