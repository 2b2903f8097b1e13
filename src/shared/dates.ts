// Calendar dates and "today" (issue 21), the one module for both. A calendar date (a contract's end,
// an invoice's due date) is a day written YYYY-MM-DD, not an instant: it is compared and shifted as
// text or in UTC arithmetic, and never turned into a Date at UTC midnight and formatted in local
// time, which moves it a day early west of UTC. "Today" is the day in one time zone: on the server
// the firm's (the time zone setting, installed with installTimeZone), in the browser the user's own.

const DAY_MS = 86_400_000;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The zone "today" is taken in, once the server has read the firm's setting; unset: the runtime's. */
let installedZone: string | undefined;

/** The time zone the process runs in (TZ, or the machine's). */
export function runtimeTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Makes `zone` the one every default "today" uses (the server: the firm's zone); undefined: the runtime's again. */
export function installTimeZone(zone: string | undefined): void {
  installedZone = zone;
}

/** The zone a default "today" is taken in. */
export function currentTimeZone(): string {
  return installedZone ?? runtimeTimeZone();
}

/** An IANA time zone name Intl knows (Europe/London, America/New_York, UTC). */
export function isTimeZone(name: string): boolean {
  if (!name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// Building an Intl formatter costs far more than using one, and "today" is asked for on most requests.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(at: Date, zone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The calendar day (YYYY-MM-DD) an instant falls on in `zone`. */
export function dayOf(at: Date | string, zone: string = currentTimeZone()): string {
  const { year, month, day } = wallClock(typeof at === 'string' ? new Date(at) : at, zone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const QUARTER_HOUR_MS = 900_000;
// Every zone's offset from UTC is a whole number of quarter hours today (Kathmandu +05:45, Chatham
// +12:45), so its day can only turn at the start of a UTC quarter hour: "today" is worked out once per
// zone and quarter hour (issue 27: formatting the day took tens of µs on each list request).
const todays = new Map<string, { quarter: number; day: string }>();

/** Today in `zone`: the firm's on the server, the user's in the browser. */
export function today(zone: string = currentTimeZone()): string {
  const now = Date.now();
  const quarter = Math.floor(now / QUARTER_HOUR_MS);
  const known = todays.get(zone);
  if (known?.quarter === quarter) return known.day;
  const day = dayOf(new Date(now), zone);
  todays.set(zone, { quarter, day });
  return day;
}

/** The current month (YYYY-MM) in `zone`. */
export const thisMonth = (zone: string = currentTimeZone()): string => today(zone).slice(0, 7);

/** Whether `value` is a real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** `day` plus `days` (negative: minus), as YYYY-MM-DD. UTC arithmetic, so no zone can shift it. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Monday 0 .. Sunday 6 of a calendar day. */
export const weekdayOf = (day: string): number => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The first and last day of a month given as YYYY-MM (or any day in it). */
export function monthBounds(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.slice(0, 7).split('-').map(Number);
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { first: `${pad(year, 4)}-${pad(monthNumber)}-01`, last: `${pad(year, 4)}-${pad(monthNumber)}-${pad(last)}` };
}

/**
 * The instant the wall clock in `zone` reads `day` at `hour`:`minute` (a daily job "at 00:05 in the
 * firm's zone"). The zone's offset is taken at the guess and checked once more, which settles it on
 * either side of a daylight-saving change.
 */
export function zonedInstant(day: string, hour: number, minute: number, zone: string = currentTimeZone()): Date {
  const [year, month, date] = day.split('-').map(Number);
  const target = Date.UTC(year, month - 1, date, hour, minute);
  let instant = target;
  for (let i = 0; i < 2; i += 1) {
    const seen = wallClock(new Date(instant), zone);
    const shown = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
    instant += target - shown;
  }
  return new Date(instant);
}

/**
 * spec §9: a date as YYYY-MM-DD. A calendar date is shown as written, in every zone; a timestamp
 * (an ISO instant) as the day it falls on where the reader is.
 */
export function formatDay(value: string | null | undefined, zone: string = currentTimeZone()): string {
  if (!value) return '';
  if (CALENDAR_DATE.test(value)) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value.slice(0, 10);
  return dayOf(at, zone);
}

/**
 * An instant in a sentence read away from the screen (a mail): "2026-12-02 at 14:00 (Europe/London)",
 * spec §9's day and time on the firm's clock, the zone named since the reader may be elsewhere.
 */
export function formatDayTimeInZone(at: Date, zone: string = currentTimeZone()): string {
  const { hour, minute } = wallClock(at, zone);
  return `${dayOf(at, zone)} at ${pad(hour)}:${pad(minute)} (${zone})`;
}

/** A timestamp as 'YYYY-MM-DD HH:MM' where the reader is; a calendar date as the date alone. */
export function formatDayTime(value: string | null | undefined, zone: string = currentTimeZone()): string {
  if (!value) return '';
  if (CALENDAR_DATE.test(value)) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const { hour, minute } = wallClock(at, zone);
  return `${dayOf(at, zone)} ${pad(hour)}:${pad(minute)}`;
}
