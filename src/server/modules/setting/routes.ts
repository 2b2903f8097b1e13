// Settings: the announcement (status on/off, message, audience), the expense receipt threshold and the firm's time zone.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { announcementSchema, timeZoneSettingSchema, type AnnouncementSetting } from '../../../shared/schemas/setting';
import { expenseSettingSchema } from '../../../shared/resources/expense';
import { getAnnouncementSetting, saveAnnouncement } from './announcement';
import { getExpenseSetting, saveExpenseSetting } from './expense-setting';
import { getTimeZoneSetting, saveTimeZoneSetting } from './time-zone';

/** Called after the announcement changes (the realtime layer tells each audience what is now for it). */
export type AnnouncementListener = (announcement: AnnouncementSetting, previous: AnnouncementSetting) => Promise<void> | void;

export function registerSettingRoutes(parent: FastifyInstance, onAnnouncementChange?: AnnouncementListener) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setting/announcement', { config: { auth: 'app', permission: 'can-view-setting' } }, async () =>
    ({ data: await getAnnouncementSetting(parent.db) }));

  app.put('/setting/announcement', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: announcementSchema } }, async (request) => {
    const { saved: data, previous } = await saveAnnouncement(parent.db, request.body);
    await onAnnouncementChange?.(data, previous);
    return { data, message: 'Announcement updated successfully.' };
  });

  app.get('/setting/expense', { config: { auth: 'app', permission: 'can-view-setting' } }, async () =>
    ({ data: await getExpenseSetting(parent.db) }));

  app.put('/setting/expense', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: expenseSettingSchema } }, async (request) =>
    ({ data: await saveExpenseSetting(parent.db, request.body), message: 'Expense settings updated successfully.' }));

  app.get('/setting/time-zone', { config: { auth: 'app', permission: 'can-view-setting' } }, async () =>
    ({ data: await getTimeZoneSetting(parent) }));

  app.put('/setting/time-zone', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: timeZoneSettingSchema } }, async (request) =>
    ({ data: await saveTimeZoneSetting(parent, request.body.time_zone), message: 'Time zone updated successfully.' }));
}
