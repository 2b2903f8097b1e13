// spec §5 date rules as onboarding tasks use them (issue 13), at their boundaries.
import { describe, expect, it } from 'vitest';
import { daysOverdue, ESCALATE_AFTER_DAYS, taskDueSoonLabel } from '../../src/shared/rules';
import { addDays } from '../../src/shared/dates';

describe('a task\'s countdown: the days left in the 5 days before its due date (decision 021)', () => {
  const due_date = '2026-03-15';
  it('shows 5 minus the days of the window elapsed, saying what it counts', () => {
    expect(taskDueSoonLabel({ status: 'pending', due_date }, '2026-03-10')).toBe('5 days left');
    expect(taskDueSoonLabel({ status: 'pending', due_date }, '2026-03-14')).toBe('1 day left');
    expect(taskDueSoonLabel({ status: 'pending', due_date }, '2026-03-15')).toBe('Due today');
  });
  it('shows nothing before the window, and nothing once late: lateness is said instead, never both', () => {
    expect(taskDueSoonLabel({ status: 'pending', due_date }, '2026-03-09')).toBeNull();
    expect(taskDueSoonLabel({ status: 'pending', due_date }, '2026-03-16')).toBeNull();
    expect(daysOverdue({ due_date, status: 'pending' }, '2026-03-16')).toBe(1);
  });
  it('shows nothing for a done task', () => {
    expect(taskDueSoonLabel({ status: 'done', due_date }, '2026-03-14')).toBeNull();
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
