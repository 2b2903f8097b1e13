// spec §5 date rules as onboarding tasks use them (issue 13), at their boundaries.
import { describe, expect, it } from 'vitest';
import { daysOverdue, ESCALATE_AFTER_DAYS, taskDueSoonLabel } from '../../src/shared/rules';
import { addDays } from '../../src/shared/dates';

describe('a task\'s countdown, from the day it was assigned', () => {
  const assigned_on = '2026-03-10';
  it('shows 5 minus the days elapsed while within the 5-day window', () => {
    expect(taskDueSoonLabel({ status: 'pending', assigned_on }, '2026-03-10')).toBe('5 day(s)');
    expect(taskDueSoonLabel({ status: 'pending', assigned_on }, '2026-03-11')).toBe('4 day(s)');
    expect(taskDueSoonLabel({ status: 'pending', assigned_on }, '2026-03-15')).toBe('0 day(s)');
  });
  it('shows nothing outside the window, or before the assignment', () => {
    expect(taskDueSoonLabel({ status: 'pending', assigned_on }, '2026-03-16')).toBeNull();
    expect(taskDueSoonLabel({ status: 'pending', assigned_on }, '2026-03-09')).toBeNull();
  });
  it('shows nothing for a done task', () => {
    expect(taskDueSoonLabel({ status: 'done', assigned_on }, '2026-03-11')).toBeNull();
  });
});

describe('days overdue of a task', () => {
  it('is 0 on the due date and counts each day after it while pending', () => {
    expect(daysOverdue({ due_date: '2026-03-10', status: 'pending' }, '2026-03-09')).toBe(0);
    expect(daysOverdue({ due_date: '2026-03-10', status: 'pending' }, '2026-03-10')).toBe(0);
    expect(daysOverdue({ due_date: '2026-03-10', status: 'pending' }, '2026-03-11')).toBe(1);
  });
  it('is the completion minus the due date for a done task, floored at 0, whatever today is', () => {
    expect(daysOverdue({ due_date: '2026-03-10', status: 'done', completion_date: '2026-03-10' }, '2026-04-01')).toBe(0);
    expect(daysOverdue({ due_date: '2026-03-10', status: 'done', completion_date: '2026-03-09' }, '2026-04-01')).toBe(0);
    expect(daysOverdue({ due_date: '2026-03-10', status: 'done', completion_date: '2026-03-14' }, '2026-04-01')).toBe(4);
  });
  it('escalates after 3 days', () => expect(ESCALATE_AFTER_DAYS).toBe(3));
});

describe('addDays', () => {
  it('crosses months, years and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
