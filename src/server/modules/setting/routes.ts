// Settings: the announcement (status on/off, message, audience), the expense receipt threshold, the firm's time zone
// and working week, and the firm's profile (name, logo, default currency; issue 22).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  announcementSchema, announcementSettingView, expenseSettingView, timeZoneSettingSchema, timeZoneSettingView, workingWeekSettingView,
} from '../../../shared/schemas/setting';
import { dataResponse, fileDownload, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import { expenseSettingSchema } from '../../../shared/resources/expense';
import { validationError } from '../../plugins/errors';
import { contextOf } from '../../resources/types';
import { workingWeekSettingSchema } from '../../../shared/working-week';
import { FIRM_LOGO_MAX_BYTES, firmProfileSchema, firmProfileView } from '../../../shared/schemas/setup';
import { firmLogo, getFirmProfile, removeFirmLogo, saveFirmLogo } from './firm-profile';
import {
  type AnnouncementListener, announcementSetting, expenseSetting, firmProfile, timeZoneSetting, updateAnnouncement, updateExpenseSetting,
  updateFirmProfile, updateTimeZone, updateWorkingWeek, workingWeekSetting,
} from './service';

export function registerSettingRoutes(parent: FastifyInstance, onAnnouncementChange?: AnnouncementListener) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setting/announcement', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(announcementSettingView) } } }, async (request) =>
    ({ data: await announcementSetting(contextOf(request)) }));

  app.put('/setting/announcement', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: announcementSchema, response: { 200: savedResponse(announcementSettingView) } } }, async (request) =>
    ({ data: await updateAnnouncement(contextOf(request), request.body, onAnnouncementChange), message: 'Announcement updated successfully.' }));

  app.get('/setting/expense', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(expenseSettingView) } } }, async (request) =>
    ({ data: await expenseSetting(contextOf(request)) }));

  app.put('/setting/expense', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: expenseSettingSchema, response: { 200: savedResponse(expenseSettingView) } } }, async (request) =>
    ({ data: await updateExpenseSetting(contextOf(request), request.body), message: 'Expense settings updated successfully.' }));

  // The firm's name, logo and currency: public, as the sign-in page and the page titles show them (no
  // caller, so no context: the readers take the handle).
  app.get('/firm', { config: { auth: 'none' }, schema: { response: { 200: dataResponse(firmProfileView) } } }, async () => ({ data: await getFirmProfile(parent.db) }));

  app.get('/firm/logo', { config: { auth: 'none' }, schema: { response: { 200: fileDownload, 404: messageResponse } } }, async (_request, reply) => {
    const logo = await firmLogo(parent.db);
    if (!logo) return reply.status(404).send({ message: 'The firm has no logo.' });
    return reply.header('content-type', logo.mime).header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable').send(parent.storage.read(logo.key));
  });

  app.get('/setting/firm', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(firmProfileView) } } }, async (request) =>
    ({ data: await firmProfile(contextOf(request)) }));

  app.put('/setting/firm', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: firmProfileSchema, response: { 200: savedResponse(firmProfileView) } } }, async (request) =>
    ({ data: await updateFirmProfile(contextOf(request), request.body), message: 'Firm profile updated successfully.' }));

  app.put('/setting/firm/logo', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { response: { 200: savedResponse(firmProfileView) } } }, async (request) => {
    if (!request.isMultipart()) throw validationError({ logo: 'Choose an image for the logo.' });
    const data = await saveFirmLogo(contextOf(request), await request.file({ limits: { fileSize: FIRM_LOGO_MAX_BYTES, files: 1 } }));
    return { data, message: 'Logo updated successfully.' };
  });

  app.delete('/setting/firm/logo', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { response: { 200: savedResponse(firmProfileView) } } }, async (request) =>
    ({ data: await removeFirmLogo(contextOf(request)), message: 'Logo removed successfully.' }));

  app.get('/setting/time-zone', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(timeZoneSettingView) } } }, async (request) =>
    ({ data: await timeZoneSetting(contextOf(request)) }));

  app.put('/setting/time-zone', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: timeZoneSettingSchema, response: { 200: savedResponse(timeZoneSettingView) } } }, async (request) =>
    ({ data: await updateTimeZone(contextOf(request), request.body.time_zone), message: 'Time zone updated successfully.' }));

  app.get('/setting/working-week', { config: { auth: 'app', permission: 'can-view-setting' }, schema: { response: { 200: dataResponse(workingWeekSettingView) } } }, async (request) =>
    ({ data: await workingWeekSetting(contextOf(request)) }));

  // Issue 22: which weekdays are working days; a leave's length and the leave calendar follow it at once.
  app.put('/setting/working-week', { config: { auth: 'app', permission: 'can-edit-setting' }, schema: { body: workingWeekSettingSchema, response: { 200: savedResponse(workingWeekSettingView) } } }, async (request) =>
    ({ data: await updateWorkingWeek(contextOf(request), request.body), message: 'Working week updated successfully.' }));
}
