// Settings: the announcement (status on/off, message) and the expense receipt threshold.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { announcementSchema } from '../../../shared/schemas/setting';
import { expenseSettingSchema } from '../../../shared/resources/expense';
import type { Db } from '../../db/client';
import { requireAccount } from '../../plugins/auth';
import { plainChanges, recordChange } from '../../resources/audit';
import { getAnnouncement, saveAnnouncement } from './announcement';
import { getExpenseSetting, saveExpenseSetting } from './expense-setting';

/** Called after the announcement changes (the realtime layer broadcasts it). */
export type AnnouncementListener = (announcement: { status: 'on' | 'off'; message: string }) => Promise<void> | void;

export function registerSettingRoutes(parent: FastifyInstance, onAnnouncementChange?: AnnouncementListener) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setting/announcement', { config: { auth: 'app', permission: 'can-view-setting' } }, async () =>
    ({ data: await getAnnouncement(parent.db) }));

  app.put('/setting/announcement', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: announcementSchema } }, async (request) => {
    // Saved and recorded in the audit trail in one transaction (issue 20).
    const data = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await getAnnouncement(db);
      const saved = await saveAnnouncement(db, request.body);
      await recordChange(db, { account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Announcement', changes: plainChanges(before, saved) });
      return saved;
    });
    await onAnnouncementChange?.(data);
    return { data, message: 'Announcement updated successfully.' };
  });

  app.get('/setting/expense', { config: { auth: 'app', permission: 'can-view-setting' } }, async () =>
    ({ data: await getExpenseSetting(parent.db) }));

  app.put('/setting/expense', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: expenseSettingSchema } }, async (request) => {
    const data = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await getExpenseSetting(db);
      const saved = await saveExpenseSetting(db, request.body);
      await recordChange(db, { account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Expense', changes: plainChanges(before, saved) });
      return saved;
    });
    return { data, message: 'Expense settings updated successfully.' };
  });
}
