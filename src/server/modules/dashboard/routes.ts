// Dashboard figures (cards) and panels (app-dashboard.ts) of the main application; the partner portal's (partner.ts).
import { and, count, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/accounts';
import { positions } from '../../db/schema/master-data';
import { notifications } from '../../db/schema/notifications';
import { requireAccount } from '../../plugins/auth';
import { ACTIVE_USER_MINUTES } from '../../../shared/resources/user';
import { appDashboardResponse, partnerDashboardResponse } from '../../../shared/schemas/dashboard';
import { appDashboardPanels } from './app-dashboard';
import { countedByKeeping } from './kept-counts';
import { partnerDashboard } from './partner';
import { engineerHome } from './mine';
import { homeResponse } from '../../../shared/schemas/home';

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/dashboard', { config: { auth: 'app', permission: 'can-view-dashboard' }, schema: { response: { 200: appDashboardResponse } } }, async (request) => {
    const account = requireAccount(request);
    const [unread] = await app.db.select({ value: count() }).from(notifications).where(and(
      eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, account.id), isNull(notifications.read_at)));
    const data: Record<string, unknown> = { unread_notifications: unread.value };
    // Each figure only for those who may open its list.
    const userTypes = (['admin', 'manager', 'user'] as const).filter((userType) => account.permissions.includes(`can-view-${userType}`));
    if (userTypes.length) {
      // From the counts kept per account type and status (kept-counts.ts).
      const byType = await countedByKeeping(app.db, 'user', and(eq(users.status, 'active'), inArray(users.user_type, userTypes)), 'user_type') as { value: unknown; count: number }[];
      // Zero included: a fresh install has no managers yet.
      for (const userType of userTypes) data[`${userType}s`] = byType.find((row) => row.value === userType)?.count ?? 0;
    }
    if (account.permissions.includes('can-view-active-user')) {
      const [active] = await app.db.select({ value: count() }).from(users)
        .where(gt(users.last_activity_at, new Date(Date.now() - ACTIVE_USER_MINUTES * 60_000)));
      data.active_users = active.value;
    }
    if (account.permissions.includes('can-view-position')) {
      data.open_positions = await countedByKeeping(app.db, 'position', eq(positions.status, 'open'));
    }
    return { data: { ...data, ...await appDashboardPanels(request) } };
  });

  // Issue 28: the engineer's home, their own records in one answer (mine.ts).
  app.get('/dashboard/mine', { config: { auth: 'app', permission: 'can-view-dashboard' }, schema: { response: { 200: homeResponse } } },
    async (request) => ({ data: await engineerHome(app.db, requireAccount(request)) }));

  app.get('/partner/dashboard', { config: { auth: 'partner' }, schema: { response: { 200: partnerDashboardResponse } } }, async (request) => ({ data: await partnerDashboard(app.db, requireAccount(request)) }));
}
