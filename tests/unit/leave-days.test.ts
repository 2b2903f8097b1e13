// The pure rules of leave (issue 9): working days, half days, overlaps, months.
import { describe, expect, it } from 'vitest';
import {
  countWorkingDays, datesBetween, leavesOverlap, leaveWorkflow, monthRange, partOn, shiftMonth,
} from '../../src/shared/resources/leave-application';
import { statusTone } from '../../src/shared/resources/define';

const leave = (from_date: string, to_date: string, is_half_day_start = false, is_half_day_end = false) =>
  ({ from_date, to_date, is_half_day_start, is_half_day_end });

describe('working days of a leave', () => {
  it('leaves out weekends and holidays', () => {
    // Fri 2030-03-08 to Tue 2030-03-12, Monday a holiday.
    expect(countWorkingDays('2030-03-08', '2030-03-12', new Set())).toBe(3);
    expect(countWorkingDays('2030-03-08', '2030-03-12', new Set(['2030-03-11']))).toBe(2);
    expect(countWorkingDays('2030-03-09', '2030-03-10', new Set())).toBe(0);
  });

  it('takes half a day off at either end only when that end is a working day', () => {
    expect(countWorkingDays('2030-03-08', '2030-03-12', new Set(), true, true)).toBe(2);
    // Starts at noon on a Saturday: nothing to take off.
    expect(countWorkingDays('2030-03-09', '2030-03-12', new Set(), true)).toBe(2);
    expect(countWorkingDays('2030-03-08', '2030-03-08', new Set(), true)).toBe(0.5);
  });

  it('crosses months and leap days', () => {
    expect(datesBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(countWorkingDays('2030-01-01', '2030-12-31', new Set())).toBe(261);
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
