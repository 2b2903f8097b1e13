// The one module for dates (issue 21): today in a given zone around midnight, calendar-date
// arithmetic that no zone can shift, and the instant of a wall-clock time in a zone. Also run under
// TZ=America/Los_Angeles and TZ=Pacific/Auckland (unit-la, unit-auckland): none of it may depend on
// the machine's own zone once a zone is named.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addDays, currentTimeZone, dayOf, daysBetween, formatDay, formatDayTimeInZone, installTimeZone, isCalendarDate, isTimeZone, monthBounds, runtimeTimeZone,
  thisMonth, today, weekdayOf, zonedInstant,
} from '../../src/shared/dates';
import { daysOverdue, dueSoonLabel, isExpired } from '../../src/shared/rules';

afterEach(() => { vi.useRealTimers(); installTimeZone(undefined); });

describe('today in a time zone', () => {
  it('is the firm’s day, not UTC’s, just before and after midnight', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 07:30 UTC on 5 December is still 23:30 on the 4th in Los Angeles (UTC-8).
    vi.setSystemTime(new Date('2026-12-05T07:30:00Z'));
    expect(today('America/Los_Angeles')).toBe('2026-12-04');
    expect(today('UTC')).toBe('2026-12-05');
    vi.setSystemTime(new Date('2026-12-05T08:30:00Z'));
    expect(today('America/Los_Angeles')).toBe('2026-12-05');
    // 11:30 UTC on 4 December is already 00:30 on the 5th in Auckland (UTC+13 in summer).
    vi.setSystemTime(new Date('2026-12-04T11:30:00Z'));
    expect(today('Pacific/Auckland')).toBe('2026-12-05');
    expect(today('UTC')).toBe('2026-12-04');
    vi.setSystemTime(new Date('2026-12-04T10:30:00Z'));
    expect(today('Pacific/Auckland')).toBe('2026-12-04');
  });

  it('turns at midnight in a zone a quarter hour off the hour, asked just before and just after', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Kathmandu is UTC+05:45: its 6 December begins at 18:15 UTC on the 5th.
    vi.setSystemTime(new Date('2026-12-05T18:14:59.999Z'));
    expect(today('Asia/Kathmandu')).toBe('2026-12-05');
    vi.setSystemTime(new Date('2026-12-05T18:15:00.000Z'));
    expect(today('Asia/Kathmandu')).toBe('2026-12-06');
    // And back: a clock set earlier is answered for its own time.
    vi.setSystemTime(new Date('2026-12-05T18:00:00.000Z'));
    expect(today('Asia/Kathmandu')).toBe('2026-12-05');
  });

  it('follows the installed zone by default, and the runtime’s when none is installed', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T07:30:00Z'));
    expect(currentTimeZone()).toBe(runtimeTimeZone());
    installTimeZone('America/Los_Angeles');
    expect(today()).toBe('2026-12-04');
    expect(thisMonth()).toBe('2026-12');
    installTimeZone('Pacific/Auckland');
    expect(today()).toBe('2026-12-05');
    vi.setSystemTime(new Date('2026-11-30T11:30:00Z'));
    expect(thisMonth()).toBe('2026-12'); // 00:30 on 1 December in Auckland
  });

  it('applies the spec §5 rules on the firm’s day when no day is given', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T07:30:00Z'));
    installTimeZone('America/Los_Angeles'); // the 4th
    expect(isExpired([{ expiry_date: '2026-12-05' }])).toBe(false);
    expect(daysOverdue({ due_date: '2026-12-03', status: 'pending' })).toBe(1);
    expect(dueSoonLabel('2026-12-06')).toBe('2 days left');
    installTimeZone('Pacific/Auckland'); // the 5th
    expect(isExpired([{ expiry_date: '2026-12-05' }])).toBe(true);
    expect(daysOverdue({ due_date: '2026-12-03', status: 'pending' })).toBe(2);
    expect(dueSoonLabel('2026-12-06')).toBe('1 day left');
  });

  it('takes the day of an instant in the zone named', () => {
    expect(dayOf('2026-12-05T07:30:00Z', 'America/Los_Angeles')).toBe('2026-12-04');
    expect(dayOf('2026-12-05T07:30:00Z', 'Pacific/Auckland')).toBe('2026-12-05');
    expect(dayOf(new Date('2026-12-04T11:30:00Z'), 'Pacific/Auckland')).toBe('2026-12-05');
  });
});

describe('calendar dates', () => {
  it('adds and counts days across months, years and daylight-saving changes', () => {
    expect(addDays('2026-12-05', 1)).toBe('2026-12-06');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09'); // the US clocks go forward that night
    expect(daysBetween('2026-12-05', '2027-01-04')).toBe(30);
    expect(daysBetween('2026-03-29', '2026-03-30')).toBe(1); // Europe's change
  });

  it('knows a month’s bounds and a day’s weekday', () => {
    expect(monthBounds('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthBounds('2026-12-17')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
    expect(weekdayOf('2026-12-05')).toBe(5); // a Saturday (Monday 0)
  });

  it('accepts real calendar dates and real zone names only', () => {
    expect(isCalendarDate('2026-12-05')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-12-05T00:00:00Z')).toBe(false);
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('formats a calendar date as written whatever the zone', () => {
    for (const zone of ['America/Los_Angeles', 'America/New_York', 'UTC', 'Pacific/Auckland']) {
      expect(formatDay('2026-12-05', zone)).toBe('2026-12-05');
    }
    expect(formatDay('2026-12-05T07:30:00.000Z', 'America/New_York')).toBe('2026-12-05');
    expect(formatDay('2026-12-05T03:30:00.000Z', 'America/New_York')).toBe('2026-12-04');
  });
});

describe('a wall-clock time in a zone', () => {
  it('is the instant the zone’s clock shows it, on either side of daylight saving', () => {
    expect(zonedInstant('2026-12-05', 0, 5, 'America/Los_Angeles').toISOString()).toBe('2026-12-05T08:05:00.000Z');
    expect(zonedInstant('2026-07-05', 0, 5, 'America/Los_Angeles').toISOString()).toBe('2026-07-05T07:05:00.000Z');
    expect(zonedInstant('2026-12-05', 6, 0, 'Pacific/Auckland').toISOString()).toBe('2026-12-04T17:00:00.000Z');
    expect(zonedInstant('2026-12-05', 6, 0, 'UTC').toISOString()).toBe('2026-12-05T06:00:00.000Z');
  });
});

describe('an instant in a mail\'s sentence', () => {
  it('reads as the day and time on the firm\'s clock with the zone named, across a day boundary', () => {
    const at = new Date('2026-12-02T23:30:00.000Z');
    expect(formatDayTimeInZone(at, 'Europe/London')).toBe('2026-12-02 at 23:30 (Europe/London)');
    expect(formatDayTimeInZone(at, 'Asia/Kolkata')).toBe('2026-12-03 at 05:00 (Asia/Kolkata)');
    installTimeZone('America/New_York');
    expect(formatDayTimeInZone(at)).toBe('2026-12-02 at 18:30 (America/New_York)');
  });
});
