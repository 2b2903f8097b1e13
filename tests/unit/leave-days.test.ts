// The pure rules of leave (issue 9): working days, half days, overlaps, months.
import { describe, expect, it } from 'vitest';
import {
  countWorkingDays, datesBetween, leavesOverlap, leaveWorkflow, monthRange, partOn, shiftMonth,
} from '../../src/shared/resources/leave-application';
import { statusTone } from '../../src/shared/resources/define';
import { DEFAULT_WORKING_WEEK, describeWorkingWeek, type Weekday } from '../../src/shared/working-week';

/** A Monday-to-Friday week (unless told) with these public holidays. */
const calendar = (holidays: string[] = [], workingWeek: readonly Weekday[] = DEFAULT_WORKING_WEEK) =>
  ({ workingWeek, holidays: new Map(holidays.map((date) => [date, 'Holiday'])) });

const leave = (from_date: string, to_date: string, is_half_day_start = false, is_half_day_end = false) =>
  ({ from_date, to_date, is_half_day_start, is_half_day_end });

describe('working days of a leave', () => {
  it('leaves out weekends and holidays', () => {
    // Fri 2030-03-08 to Tue 2030-03-12, Monday a holiday.
    expect(countWorkingDays('2030-03-08', '2030-03-12', calendar())).toBe(3);
    expect(countWorkingDays('2030-03-08', '2030-03-12', calendar(['2030-03-11']))).toBe(2);
    expect(countWorkingDays('2030-03-09', '2030-03-10', calendar())).toBe(0);
  });

  it('takes half a day off at either end only when that end is a working day', () => {
    expect(countWorkingDays('2030-03-08', '2030-03-12', calendar(), true, true)).toBe(2);
    // Starts at noon on a Saturday: nothing to take off.
    expect(countWorkingDays('2030-03-09', '2030-03-12', calendar(), true)).toBe(2);
    expect(countWorkingDays('2030-03-08', '2030-03-08', calendar(), true)).toBe(0.5);
  });

  it('follows the working week: a Sunday-to-Thursday week counts Sunday and not Friday', () => {
    const sundayToThursday: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'];
    // Thu 2030-03-07 to Sun 2030-03-10: Thursday and Sunday.
    expect(countWorkingDays('2030-03-07', '2030-03-10', calendar([], sundayToThursday))).toBe(2);
    expect(countWorkingDays('2030-03-07', '2030-03-10', calendar())).toBe(2);
    // Fri 2030-03-08 alone: a working day Monday to Friday, none Sunday to Thursday.
    expect(countWorkingDays('2030-03-08', '2030-03-08', calendar([], sundayToThursday))).toBe(0);
    expect(countWorkingDays('2030-03-04', '2030-03-10', calendar(['2030-03-06'], ['monday', 'wednesday', 'friday']))).toBe(2);
  });

  it('says a working week as a person would', () => {
    expect(describeWorkingWeek(DEFAULT_WORKING_WEEK)).toBe('Monday to Friday');
    expect(describeWorkingWeek(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'])).toBe('Sunday to Thursday');
    expect(describeWorkingWeek(['monday', 'wednesday', 'friday'])).toBe('Monday, Wednesday and Friday');
    expect(describeWorkingWeek(['tuesday'])).toBe('Tuesday');
  });

  it('crosses months and leap days', () => {
    expect(datesBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(countWorkingDays('2030-01-01', '2030-12-31', calendar())).toBe(261);
  });
});

describe('overlapping leave', () => {
  it('shares any day, except a morning and an afternoon', () => {
    expect(leavesOverlap(leave('2030-03-08', '2030-03-12'), leave('2030-03-12', '2030-03-13'))).toBe(true);
    expect(leavesOverlap(leave('2030-03-08', '2030-03-12'), leave('2030-03-13', '2030-03-14'))).toBe(false);
    expect(leavesOverlap(leave('2030-03-08', '2030-03-12', false, true), leave('2030-03-12', '2030-03-13', true))).toBe(false);
    expect(leavesOverlap(leave('2030-03-12', '2030-03-12', true), leave('2030-03-12', '2030-03-12', true))).toBe(true);
    expect(leavesOverlap(leave('2030-03-08', '2030-03-12', false, true), leave('2030-03-11', '2030-03-11'))).toBe(true);
  });

  it('names the part of a day a leave takes', () => {
    expect(partOn(leave('2030-03-08', '2030-03-12', true, true), '2030-03-08')).toBe('afternoon');
    expect(partOn(leave('2030-03-08', '2030-03-12', true, true), '2030-03-12')).toBe('morning');
    expect(partOn(leave('2030-03-08', '2030-03-12', true, true), '2030-03-10')).toBe('day');
  });
});

describe('months', () => {
  it('knows their ends and neighbours', () => {
    expect(monthRange('2030-02')).toEqual({ from: '2030-02-01', to: '2030-02-28' });
    expect(monthRange('2028-02').to).toBe('2028-02-29');
    expect(shiftMonth('2030-01', -1)).toBe('2029-12');
    expect(shiftMonth('2030-12', 1)).toBe('2031-01');
  });
});

describe('leave statuses', () => {
  it('are spec §4\'s, coloured by its rules where they apply', () => {
    expect(Object.keys(leaveWorkflow.states)).toEqual([
      'Back fill arrangement is in progress', 'Leave approved Back fill not required', 'Leave approved Back fill arranged',
      'SBD request Leave taken Back fill not available/arranged', 'Rejected / Rescheduled',
    ]);
    expect(Object.values(leaveWorkflow.states).map((s) => s.tone)).toEqual(['yellow', 'green', 'green', 'gray', 'red']);
    // "Rejected / Rescheduled" is red as "rejected" is; the approved ones green as "approved" is.
    expect(statusTone('rejected')).toBe('red');
  });
});
