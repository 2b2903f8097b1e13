// Settings: the announcement (status on/off, message, audience), the expense receipt threshold, the firm's time zone
// and working week, and the firm's profile (name, logo, default currency; issue 22).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  announcementAudienceOptions, announcementSchema, announcementSettingView, expenseSettingView, timeZoneSettingSchema, timeZoneSettingView,
  workingWeekSettingView, type AnnouncementSetting,
} from '../../../shared/schemas/setting';
import { dataResponse, fileDownload, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import { expenseSettingSchema } from '../../../shared/resources/expense';
import type { Db } from '../../db/client';
import { requireAccount } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import { plainChanges, recordChange } from '../../resources/audit';
import { getAnnouncementSetting, saveAnnouncement } from './announcement';
import { getExpenseSetting, saveExpenseSetting } from './expense-setting';
import { getTimeZoneSetting, saveTimeZoneSetting } from './time-zone';
import { getWorkingWeekSetting, saveWorkingWeekSetting } from './working-week';
import { describeWorkingWeek, workingWeekSettingSchema } from '../../../shared/working-week';
import { FIRM_LOGO_MAX_BYTES, firmProfileSchema, firmProfileView } from '../../../shared/schemas/setup';
import { firmLogo, getFirmProfile, removeFirmLogo, saveFirmLogo, saveFirmProfile } from './firm-profile';

/** Called after the announcement changes (the realtime layer tells each audience what is now for it). */
export type AnnouncementListener = (announcement: AnnouncementSetting, previous: AnnouncementSetting) => Promise<void> | void;

/** The announcement's changes, its audience read as the form names it ("Staff only", not "staff"). */
function announcementChanges(before: AnnouncementSetting, after: AnnouncementSetting) {
  const label = (value: unknown) => announcementAudienceOptions.find((option) => option.value === value)?.label ?? null;
  return plainChanges(before, after).map((change) => (change.field === 'audience' ? { ...change, old_text: label(change.old), new_text: label(change.new) } : change));
}

export function registerSettingRoutes(parent: FastifyInstance, onAnnouncementChange?: AnnouncementListener) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setting/announcement', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(announcementSettingView) } } }, async () =>
    ({ data: await getAnnouncementSetting(parent.db) }));

  app.put('/setting/announcement', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: announcementSchema, response: { 200: savedResponse(announcementSettingView) } } }, async (request) => {
    // Saved and recorded in the audit trail in one transaction (issue 20).
    const { saved: data, previous } = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const result = await saveAnnouncement(db, request.body);
      await recordChange(db, { account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Announcement', changes: announcementChanges(result.previous, result.saved) });
      return result;
    });
    await onAnnouncementChange?.(data, previous);
    return { data, message: 'Announcement updated successfully.' };
  });

  app.get('/setting/expense', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(expenseSettingView) } } }, async () =>
    ({ data: await getExpenseSetting(parent.db) }));

  app.put('/setting/expense', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: expenseSettingSchema, response: { 200: savedResponse(expenseSettingView) } } }, async (request) => {
    const data = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await getExpenseSetting(db);
      const saved = await saveExpenseSetting(db, request.body);
      await recordChange(db, { account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Expense', changes: plainChanges(before, saved) });
      return saved;
    });
    return { data, message: 'Expense settings updated successfully.' };
  });

  // The firm's name, logo and currency: public, as the sign-in page and the page titles show them.
  app.get('/firm', { config: { auth: 'none' }, schema: { response: { 200: dataResponse(firmProfileView) } } }, async () => ({ data: await getFirmProfile(parent.db) }));

  app.get('/firm/logo', { config: { auth: 'none' }, schema: { response: { 200: fileDownload, 404: messageResponse } } }, async (_request, reply) => {
    const logo = await firmLogo(parent.db);
    if (!logo) return reply.status(404).send({ message: 'The firm has no logo.' });
    return reply.header('content-type', logo.mime).header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable').send(parent.storage.read(logo.key));
  });

  app.get('/setting/firm', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(firmProfileView) } } }, async () =>
    ({ data: await getFirmProfile(parent.db) }));

  app.put('/setting/firm', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: firmProfileSchema, response: { 200: savedResponse(firmProfileView) } } }, async (request) => {
    const data = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const { before, after } = await saveFirmProfile(db, request.body);
      await recordChange(db, {
        account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Firm profile',
        changes: plainChanges({ name: before.name, default_currency: before.default_currency }, { name: after.name, default_currency: after.default_currency }),
      });
      return after;
    });
    return { data, message: 'Firm profile updated successfully.' };
  });

  app.put('/setting/firm/logo', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { response: { 200: savedResponse(firmProfileView) } } }, async (request) => {
    if (!request.isMultipart()) throw validationError({ logo: 'Choose an image for the logo.' });
    const data = await saveFirmLogo(parent, await request.file({ limits: { fileSize: FIRM_LOGO_MAX_BYTES, files: 1 } }));
    return { data, message: 'Logo updated successfully.' };
  });

  app.delete('/setting/firm/logo', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { response: { 200: savedResponse(firmProfileView) } } }, async () =>
    ({ data: await removeFirmLogo(parent), message: 'Logo removed successfully.' }));

  app.get('/setting/time-zone', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(timeZoneSettingView) } } }, async () =>
    ({ data: await getTimeZoneSetting(parent) }));

  app.put('/setting/time-zone', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: timeZoneSettingSchema, response: { 200: savedResponse(timeZoneSettingView) } } }, async (request) => {
    const before = await getTimeZoneSetting(parent);
    const data = await saveTimeZoneSetting(parent, request.body.time_zone, (db) => recordChange(db, {
      account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Time zone',
      changes: plainChanges({ time_zone: before.time_zone }, { time_zone: request.body.time_zone }),
    }));
    return { data, message: 'Time zone updated successfully.' };
  });

  app.get('/setting/working-week', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(workingWeekSettingView) } } }, async () =>
    ({ data: await getWorkingWeekSetting(parent.db) }));

  // Issue 22: which weekdays are working days; a leave's length and the leave calendar follow it at once.
  app.put('/setting/working-week', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: workingWeekSettingSchema, response: { 200: savedResponse(workingWeekSettingView) } } }, async (request) => {
    const data = await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await getWorkingWeekSetting(db);
      const saved = await saveWorkingWeekSetting(db, request.body);
      await recordChange(db, {
        account: requireAccount(request), action: 'update', resource: 'setting', recordId: null, title: 'Working week',
        changes: before.working_week.join() === saved.working_week.join() ? [] : [{
          field: 'working_week', old: before.working_week, new: saved.working_week,
          old_text: describeWorkingWeek(before.working_week), new_text: describeWorkingWeek(saved.working_week),
        }],
      });
      return saved;
    });
    return { data, message: 'Working week updated successfully.' };
  });
}
