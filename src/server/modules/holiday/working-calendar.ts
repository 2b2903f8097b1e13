// A person's working days (issue 22): the firm's working week less the public holidays of the
// person's work location. Every place that counts or shows working days (a leave's length, the
// balance's planned request, the leave calendar, any reminder that counts working days) asks
// workingCalendarFor, so the rule of whose holidays apply lives here and nowhere else.
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { holidays } from '../../db/schema/hr';
import { cities } from '../../db/schema/master-data';
import { getWorkingWeekSetting } from '../setting/working-week';
import type { WorkingCalendar } from '../../../shared/working-week';

/**
 * The country whose public holidays apply to a person, or null (then none do): their work
 * location's country (users.work_location_id, a city), else the person's own country.
 */
export async function holidayCountryOf(db: Db, userId: number): Promise<number | null> {
  const [person] = await db.select({ country_id: sql<number | null>`coalesce(${cities.country_id}, ${users.country_id})` })
    .from(users).leftJoin(cities, eq(cities.id, users.work_location_id)).where(eq(users.id, userId)).limit(1);
  return person?.country_id ?? null;
}

/** The public holidays (date -> name) of a country from `from` to `to`; removed ones are working days again. */
async function holidaysOf(db: Db, countryId: number | null, from: string, to: string): Promise<Map<string, string>> {
  if (!countryId) return new Map();
  const rows = await db.select({ date: holidays.date, name: holidays.name }).from(holidays).where(and(
    eq(holidays.country_id, countryId), eq(holidays.is_removed, false), gte(holidays.date, from), lte(holidays.date, to),
  ));
  return new Map(rows.map((row) => [row.date, row.name]));
}

/** The working week and the person's public holidays from `from` to `to` (both YYYY-MM-DD, included). */
export async function workingCalendarFor(db: Db, userId: number, from: string, to: string): Promise<WorkingCalendar> {
  const week = await getWorkingWeekSetting(db);
  return { workingWeek: week.working_week, holidays: await holidaysOf(db, await holidayCountryOf(db, userId), from, to) };
}
