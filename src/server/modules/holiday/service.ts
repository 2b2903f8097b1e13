// Public holidays by location (issue 22): a country's public holidays for a year, read from the offline
// data set of the date-holidays package (about 200 countries and their regions, no network), loaded
// into the holidays table; the firm's own days beside them; days the firm works removed and kept
// removed. Loading a year again is idempotent: it adds what is new, renames what the data set renamed,
// drops public days the data set no longer has, and leaves removed days removed and the firm's own days
// alone. The yearly job loads next year's for the firm's countries in December.
import Holidays from 'date-holidays';
import { and, asc, eq, gte, lte, notInArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { holidayCountries, holidays } from '../../db/schema/hr';
import { countries } from '../../db/schema/master-data';
import { HttpError, validationError } from '../../plugins/errors';
import { recordChange } from '../../resources/audit';
import { inTransaction } from '../../lib/transaction';
import { today } from '../../../shared/dates';
import type {
  HolidayCountryOption, HolidayLoad, HolidayLoadRequest, HolidayLoadResult, HolidayRow, HolidayYear,
} from '../../../shared/resources/holiday';
import type { Row } from '../../resources/types';
import type { ResourceContext } from '../../resources/types';

type Input = Record<string, unknown>;

// ---- The data set ----

/**
 * Days off: the data set's public holidays (the United Kingdom's bank holidays are among them). Its
 * "bank" days are days banks close, some only from noon (Christmas Eve in Germany); they, optional,
 * school and observance days stay working days, and the firm adds any it closes on as its own.
 */
const DAYS_OFF: 'public'[] = ['public'];
const DAY_MS = 86_400_000;

let dataSetCountries: Map<string, string> | undefined;

/** The data set's countries (code -> English name), read once. */
function dataSet(): Map<string, string> {
  dataSetCountries ??= new Map(Object.entries(new Holidays().getCountries('en')));
  return dataSetCountries;
}

const regionsByCountry = new Map<string, { code: string; name: string }[]>();

/** The regions (states, nations) the data set has for a country, by name (as the data set names them), read once. */
function regionsOf(code: string): { code: string; name: string }[] {
  let regions = regionsByCountry.get(code);
  if (!regions) {
    const states = new Holidays().getStates(code, 'en') ?? {};
    regions = Object.entries(states).map(([regionCode, name]) => ({ code: regionCode, name })).sort((a, b) => a.name.localeCompare(b.name));
    regionsByCountry.set(code, regions);
  }
  return regions;
}

/**
 * The public holidays of a country (or one of its regions) in a year: one per date (two on one day are
 * named together), each in English where the data set has it. A holiday lasting several days gives one
 * row per day; one starting at noon (Christmas Eve in some countries) counts as the day.
 */
export function publicHolidaysOf(code: string, year: number, region: string | null): { date: string; name: string }[] {
  const options = { types: DAYS_OFF, languages: ['en'] };
  const data = region ? new Holidays(code, region, options) : new Holidays(code, options);
  const byDate = new Map<string, string[]>();
  for (const entry of data.getHolidays(year, 'en') || []) {
    if (!DAYS_OFF.includes(entry.type as 'public')) continue;
    const first = entry.date.slice(0, 10);
    const length = Math.max(1, Math.round((entry.end.getTime() - entry.start.getTime()) / DAY_MS));
    for (let i = 0; i < length; i += 1) {
      const day = new Date(Date.parse(`${first}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10);
      if (!day.startsWith(String(year))) continue;
      const names = byDate.get(day) ?? [];
      if (!names.includes(entry.name)) names.push(entry.name);
      byDate.set(day, names);
    }
  }
  return [...byDate].sort(([a], [b]) => a.localeCompare(b)).map(([date, names]) => ({ date, name: names.join(' / ').slice(0, 255) }));
}

// ---- The firm's countries ----

/** Every country the holidays screen offers: the data set's and any of the countries table it lacks, the firm's marked. */
export async function holidayCountryOptions(db: Db): Promise<HolidayCountryOption[]> {
  const rows = await db.select({ id: countries.id, name: countries.name, code: countries.code, region: holidayCountries.region, firm_id: holidayCountries.id })
    .from(countries).leftJoin(holidayCountries, eq(holidayCountries.country_id, countries.id));
  const byCode = new Map(rows.map((row) => [row.code.toUpperCase(), row]));
  const codes = new Set([...dataSet().keys(), ...byCode.keys()]);
  return [...codes].map((code) => {
    const row = byCode.get(code);
    const hasData = dataSet().has(code);
    return {
      code, name: row?.name ?? dataSet().get(code)!, country_id: row?.id ?? null, is_firm: !!row?.firm_id, region: row?.region ?? null,
      regions: hasData ? regionsOf(code) : [], has_data: hasData,
    };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/** The countries table's row for a data-set country, added (active, under the data set's name) when the firm has none. */
async function countryRowFor(db: Db, code: string): Promise<{ id: number; name: string; code: string }> {
  const find = async () => (await db.select({ id: countries.id, name: countries.name, code: countries.code }).from(countries).where(eq(countries.code, code)).limit(1))[0];
  const found = await find();
  if (found) return found;
  const name = dataSet().get(code)!;
  await db.insert(countries).values({ name, code, status: 'active' }).onConflictDoNothing();
  const added = await find();
  if (!added) throw validationError({ country_code: `A country named ${name} already exists with another code: change its code to ${code} on the countries screen first.` });
  return added;
}

// ---- Loading a year ----

const yearRange = (year: number) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

/**
 * Loads a country's public holidays for a year and makes it one of the firm's countries (with the
 * region, which later loads use too). Idempotent; see the top of this file for what a reload keeps.
 */
export async function loadPublicHolidays(db: Db, load: HolidayLoad): Promise<HolidayLoadResult> {
  const { country_code: code, year } = load;
  if (!dataSet().has(code)) throw validationError({ country_code: 'The public holidays data set has no country with this code.' });
  const region = load.region;
  if (region && !regionsOf(code).some((option) => option.code === region)) {
    throw validationError({ region: 'The selected region is not one the data set has for this country.' });
  }
  const days = publicHolidaysOf(code, year, region);
  const country = await countryRowFor(db, code);
  await db.insert(holidayCountries).values({ country_id: country.id, region })
    .onConflictDoUpdate({ target: holidayCountries.country_id, set: { region, updated_at: new Date() } });

  const { from, to } = yearRange(year);
  const inYear = and(eq(holidays.country_id, country.id), gte(holidays.date, from), lte(holidays.date, to));
  const existing = await db.select({ date: holidays.date, source: holidays.source, is_removed: holidays.is_removed }).from(holidays).where(inYear);
  const before = new Map(existing.map((row) => [row.date, row]));
  // A public day the data set no longer has for this year (a corrected rule, another region) goes.
  await db.delete(holidays).where(and(inYear, eq(holidays.source, 'public'),
    days.length ? notInArray(holidays.date, days.map((day) => day.date)) : undefined));
  if (days.length) {
    // The firm's own day on the same date stays as it is; a public one takes the data set's name and keeps is_removed.
    await db.insert(holidays).values(days.map((day) => ({ country_id: country.id, date: day.date, name: day.name, source: 'public' as const })))
      .onConflictDoUpdate({
        target: [holidays.country_id, holidays.date],
        set: { name: sql`excluded.name`, updated_at: new Date() },
        setWhere: eq(holidays.source, 'public'),
      });
  }
  return {
    country, region, year, loaded: days.length,
    added: days.filter((day) => !before.has(day.date)).length,
    kept_removed: days.filter((day) => before.get(day.date)?.source === 'public' && before.get(day.date)?.is_removed).length,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "8 public holidays loaded for 2026 (United Kingdom). 1 day the firm works stays removed." */
export function describeLoad(result: HolidayLoadResult): string {
  const where = `${result.country.name}${result.region ? `, ${regionsOf(result.country.code).find((r) => r.code === result.region)?.name ?? result.region}` : ''}`;
  if (!result.loaded) return `The data set has no public holidays for ${result.year} (${where}).`;
  const kept = result.kept_removed ? ` ${plural(result.kept_removed, 'day the firm works stays', 'days the firm works stay')} removed.` : '';
  return `${plural(result.loaded, 'public holiday', 'public holidays')} loaded for ${result.year} (${where}).${kept}`;
}

/** POST /holiday/load: the year asked for, else this year and next (the firm's); one transaction, in the audit trail. */
export async function loadPublicHolidaysFor(ctx: ResourceContext, load: HolidayLoadRequest): Promise<HolidayLoadResult[]> {
  const { app, account } = ctx;
  const thisYear = Number(today().slice(0, 4));
  const years = load.year ? [load.year] : [thisYear, thisYear + 1];
  return inTransaction(app, async ({ db }) => {
    const results: HolidayLoadResult[] = [];
    for (const year of years) {
      const result = await loadPublicHolidays(db, { ...load, year });
      await recordChange(db, {
        account, action: 'update', resource: 'holiday', recordId: null, title: `Public holidays ${result.year}, ${result.country.name}`,
        changes: [{ field: 'loaded', old: null, new: result.loaded, old_text: null, new_text: String(result.loaded) }],
      });
      results.push(result);
    }
    return results;
  });
}

/**
 * The yearly job (early December): next year's public holidays for each of the firm's countries the
 * data set has, with the region chosen for it. Days removed for next year stay removed.
 */
export async function loadNextYearForFirmCountries(app: FastifyInstance, job?: { unique_key: string | null }): Promise<HolidayLoadResult[]> {
  // The year after the one the run was scheduled in (its key, holidays-next-year:YYYY), even when it runs late.
  const scheduledIn = /:(\d{4})$/.exec(job?.unique_key ?? '')?.[1] ?? today().slice(0, 4);
  const year = Number(scheduledIn) + 1;
  const firm = await app.db.select({ code: countries.code, region: holidayCountries.region }).from(holidayCountries)
    .innerJoin(countries, eq(countries.id, holidayCountries.country_id)).orderBy(asc(countries.code));
  const results: HolidayLoadResult[] = [];
  for (const country of firm) {
    const code = country.code.toUpperCase();
    if (!dataSet().has(code)) continue;
    results.push(await inTransaction(app, ({ db }) => loadPublicHolidays(db, { country_code: code, year, region: country.region })));
  }
  return results;
}

/**
 * A country is no longer one of the firm's: the yearly job stops loading it. Its holidays stay (leave
 * already counted with them keeps its days); 404 when it was not one of the firm's.
 */
export async function forgetFirmCountry(ctx: ResourceContext, countryId: number): Promise<{ name: string }> {
  const { app, account } = ctx;
  return inTransaction(app, async ({ db }) => {
    const [country] = await db.select({ name: countries.name }).from(holidayCountries)
      .innerJoin(countries, eq(countries.id, holidayCountries.country_id)).where(eq(holidayCountries.country_id, countryId));
    if (!country) throw new HttpError(404, 'This country is not one of the firm\'s countries.');
    await db.delete(holidayCountries).where(eq(holidayCountries.country_id, countryId));
    await recordChange(db, {
      account, action: 'update', resource: 'holiday', recordId: null, title: `Public holidays, ${country.name}`,
      changes: [{ field: 'is_firm_country', old: true, new: false, old_text: 'One of the firm\'s countries', new_text: 'Not one of the firm\'s countries' }],
    });
    return country;
  });
}

// ---- One year of one country, removing and restoring ----

/** One country's holidays of one year; without a country, the firm's first (by name); without a year, this one. */
export async function holidayYear(db: Db, code: string | undefined, year: number = Number(today().slice(0, 4))): Promise<HolidayYear> {
  const [country] = await db.select({ id: countries.id, name: countries.name, code: countries.code, region: holidayCountries.region })
    .from(countries).leftJoin(holidayCountries, eq(holidayCountries.country_id, countries.id))
    .where(code ? eq(countries.code, code) : sql`${holidayCountries.id} is not null`).orderBy(asc(countries.name)).limit(1);
  if (!country) return { country: null, region: null, year, holidays: [] };
  const { from, to } = yearRange(year);
  const rows: HolidayRow[] = await db.select({ id: holidays.id, date: holidays.date, name: holidays.name, source: holidays.source, is_removed: holidays.is_removed })
    .from(holidays).where(and(eq(holidays.country_id, country.id), gte(holidays.date, from), lte(holidays.date, to)))
    .orderBy(asc(holidays.date));
  return { country: { id: country.id, name: country.name, code: country.code }, region: country.region, year, holidays: rows };
}

/** Marks a holiday removed (a day the firm works) or restores it; 404 when there is none. */
export async function setHolidayRemoved(ctx: ResourceContext, id: number, isRemoved: boolean): Promise<HolidayRow> {
  const { app, account } = ctx;
  return inTransaction(app, async ({ db }) => {
    const [before] = await db.select().from(holidays).where(eq(holidays.id, id)).for('update');
    if (!before) throw new HttpError(404, 'Holiday not found.');
    const [row] = await db.update(holidays).set({ is_removed: isRemoved, updated_at: new Date() }).where(eq(holidays.id, id))
      .returning({ id: holidays.id, date: holidays.date, name: holidays.name, source: holidays.source, is_removed: holidays.is_removed });
    if (before.is_removed !== isRemoved) {
      await recordChange(db, {
        account, action: 'update', resource: 'holiday', recordId: id, title: `${before.name} (${before.date})`,
        changes: [{ field: 'is_removed', old: before.is_removed, new: isRemoved, old_text: before.is_removed ? 'Removed' : 'A holiday', new_text: isRemoved ? 'Removed' : 'A holiday' }],
      });
    }
    return row;
  });
}

// ---- The resource's hooks: the firm's own days ----

/** One holiday per country and date, said on the date field rather than as a conflict. */
export async function checkHolidayDate(db: Db, values: Input, existing?: Row) {
  const countryId = (values.country_id ?? existing?.country_id) as number;
  const date = (values.date ?? existing?.date) as string;
  const [taken] = await db.select({ name: holidays.name, is_removed: holidays.is_removed }).from(holidays)
    .where(and(eq(holidays.country_id, countryId), eq(holidays.date, date), existing ? sql`${holidays.id} <> ${existing.id as number}` : undefined)).limit(1);
  if (taken?.is_removed) throw validationError({ date: `${taken.name} on ${date} was removed from this country's holidays: restore it instead.` });
  if (taken) throw validationError({ date: `${taken.name} is already a holiday on ${date} in this country.` });
}

/** A public holiday keeps the data set's date and country (a reload would add it again): remove it and add the firm's own day. */
export function checkPublicHolidayUpdate(values: Input, existing: Row) {
  if (existing.source !== 'public') return;
  const moves = (values.date !== undefined && values.date !== existing.date) || (values.country_id !== undefined && values.country_id !== existing.country_id);
  if (moves) throw validationError({ date: 'A public holiday keeps its date and country: remove it and add the firm\'s own day instead.' });
}

/** A public holiday is removed, not deleted, so that loading its year again does not bring it back. */
export function checkHolidayDelete(existing: Row) {
  if (existing.source === 'public') throw new HttpError(409, 'A public holiday cannot be deleted: remove it instead, so that loading the year again does not bring it back.');
}
