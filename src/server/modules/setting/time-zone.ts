// The firm's time zone (issue 21): every server "today" (expiry, due-soon, overdue, reminders, a month
// "not in the future", leave working days, a check's completion date) is the day in this zone. Stored
// as the `time_zone` setting; never saved, it is APP_TIMEZONE, else the server's own zone.
//
// "Today" is asked for on most requests and inside pure rules, so the zone is kept in the process
// (src/shared/dates.ts installTimeZone) rather than read each time: set at start, at once on the node
// that saves a change, and re-read every minute so the other nodes follow within that minute.
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema/settings';
import { currentTimeZone, installTimeZone, isTimeZone, runtimeTimeZone, today } from '../../../shared/dates';
import type { TimeZoneSetting } from '../../../shared/schemas/setting';

const KEY = 'time_zone';
const REFRESH_MS = 60_000;

const defaultZone = (app: FastifyInstance) => app.config.timeZone ?? runtimeTimeZone();

async function storedZone(db: Db): Promise<string | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).limit(1);
  return typeof row?.value === 'string' && isTimeZone(row.value) ? row.value : null;
}

/** The setting as the screen shows it; `db` is the caller's handle (inside a transaction, its own). */
export async function getTimeZoneSetting(app: FastifyInstance, db: Db = app.db): Promise<TimeZoneSetting> {
  const stored = await storedZone(db);
  return { time_zone: stored ?? defaultZone(app), default_time_zone: defaultZone(app), today: today(stored ?? defaultZone(app)) };
}

/** Stores the zone through the caller's transaction; `applyTimeZone` once it is committed. */
export async function storeTimeZone(db: Db, zone: string): Promise<void> {
  await db.insert(settings).values({ key: KEY, value: zone })
    .onConflictDoUpdate({ target: settings.key, set: { value: zone, updated_at: new Date() } });
}

/** Applies a saved zone on this node at once. */
export function applyTimeZone(app: FastifyInstance, zone: string): TimeZoneSetting {
  installTimeZone(zone);
  return { time_zone: zone, default_time_zone: defaultZone(app), today: today(zone) };
}

/** Reads the firm's zone into the process now, then every minute until the app closes. */
export async function followFirmTimeZone(app: FastifyInstance): Promise<void> {
  const refresh = async () => installTimeZone((await storedZone(app.db)) ?? defaultZone(app));
  await refresh();
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => app.log.warn({ err: error }, 'could not re-read the firm\'s time zone; keeping the last one'));
  }, REFRESH_MS).unref();
  // The zone is the process's, not the app's: a closed app gives it back, so that what runs next in the
  // process (another app, a test file after this one) starts from the runtime's zone, not this firm's.
  app.addHook('onClose', async () => {
    clearInterval(timer);
    installTimeZone(undefined);
  });
}

/**
 * The firm's today as a SQL date, for queries that compare calendar dates in the database (whose own
 * `current_date` is the session's zone, often UTC). Taken when the query is built, not when the
 * module loads, so a changed setting applies to the next query.
 */
export const firmTodaySql: SQLWrapper = { getSQL: () => sql`${today(currentTimeZone())}::date` };
