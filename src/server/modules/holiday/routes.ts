// Holidays (issue 22): the resource's routes (the firm's own days: add, edit, delete) and the holidays
// screen's: the countries it offers, one country's year, loading a year's public holidays, removing a
// day the firm works and restoring it, and a country that is no longer the firm's.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { holidays } from '../../db/schema/hr';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { holidayCountryOptionSchema, holidayLoadResultSchema, holidayRowSchema, holidayYearSchema } from '../../../shared/schemas/holiday';
import { dataResponse, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import { holiday, holidayLoadSchema, holidayYearQuerySchema } from '../../../shared/resources/holiday';
import {
  checkHolidayDate, checkHolidayDelete, checkPublicHolidayUpdate, describeLoad, forgetFirmCountry, holidayCountryOptions, holidayYear, loadPublicHolidaysFor,
  setHolidayRemoved,
} from './service';

export function registerHolidayRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const tags = [holiday.label];
  registerResource(parent, {
    definition: holiday,
    table: holidays,
    // A day added here is the firm's own, whatever the body says; public ones come only from a load.
    beforeCreate: async (values, _input, { db }) => { await checkHolidayDate(db, values); return { ...values, source: 'firm', is_removed: false }; },
    beforeUpdate: async (values, existing, _input, { db }) => {
      checkPublicHolidayUpdate(values, existing);
      await checkHolidayDate(db, values, existing);
      return values;
    },
    beforeDelete: (existing) => checkHolidayDelete(existing),
  });

  app.get('/holiday/countries', {
    config: { auth: 'app', permission: holiday.permissions.view },
    schema: { tags, summary: 'The countries whose holidays can be kept: the data set\'s, with their regions, the firm\'s marked', response: { 200: dataResponse(z.array(holidayCountryOptionSchema)) } },
  }, async () => ({ data: await holidayCountryOptions(parent.db) }));

  app.get('/holiday/year', {
    config: { auth: 'app', permission: holiday.permissions.view },
    schema: { tags, summary: 'One country\'s holidays of one year, removed ones included', querystring: holidayYearQuerySchema, response: { 200: dataResponse(holidayYearSchema) } },
  }, async (request) => ({ data: await holidayYear(parent.db, request.query.country_code, request.query.year) }));

  app.post('/holiday/load', {
    config: { auth: 'app', permission: holiday.permissions.add },
    schema: { tags, summary: 'Load (or load again) a country\'s public holidays for a year (default: this year and next) from the offline data set', body: holidayLoadSchema, response: { 200: savedResponse(z.array(holidayLoadResultSchema)) } },
  }, async (request) => {
    const results = await loadPublicHolidaysFor(contextOf(request), request.body);
    return { data: results, message: results.map(describeLoad).join(' ') };
  });

  const idParams = z.object({ id: idQuery() });
  app.delete('/holiday/countries/:id', {
    config: { auth: 'app', permission: holiday.permissions.delete },
    schema: { tags, summary: 'A country is no longer the firm\'s: its public holidays stop loading each year (its holidays stay)', params: idParams, response: { 200: messageResponse } },
  }, async (request) => {
    const { name } = await forgetFirmCountry(contextOf(request), request.params.id);
    return { message: `${name} is no longer one of the firm's countries: its holidays stay, and next year's will not load by themselves.` };
  });

  app.post('/holiday/:id/remove', {
    config: { auth: 'app', permission: holiday.permissions.edit },
    schema: { tags, summary: 'Remove a holiday: the firm works that day (kept, so loading the year again leaves it removed)', params: idParams, response: { 200: savedResponse(holidayRowSchema) } },
  }, async (request) => {
    const data = await setHolidayRemoved(contextOf(request), request.params.id, true);
    return { data, message: `${data.name} on ${data.date} is removed: it is a working day.` };
  });

  app.post('/holiday/:id/restore', {
    config: { auth: 'app', permission: holiday.permissions.edit },
    schema: { tags, summary: 'Restore a removed holiday', params: idParams, response: { 200: savedResponse(holidayRowSchema) } },
  }, async (request) => {
    const data = await setHolidayRemoved(contextOf(request), request.params.id, false);
    return { data, message: `${data.name} on ${data.date} is a holiday again.` };
  });
}
