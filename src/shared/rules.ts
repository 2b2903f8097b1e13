// Date and list rules of spec §5 and §9. Dates are YYYY-MM-DD strings compared as calendar days;
// "today" is the firm's on the server and the user's in the browser (src/shared/dates.ts).
import { daysBetween, today } from './dates';

export const DUE_SOON_WINDOW_DAYS = 5; // spec §9

/** spec §5: a list counts as expired when it is empty or any item's expiry date is on or before today. */
export function isExpired(items: ReadonlyArray<{ expiry_date: string | null | undefined }>, on: string = today()): boolean {
  if (items.length === 0) return true;
  return items.some((item) => !item.expiry_date || item.expiry_date <= on);
}

/**
 * spec §5 "Due-soon countdown", as read in decision 021 (issue 24): the 5-day window is the last five
 * days before an item's due date; a pending item inside it shows 5 minus the days of the window
 * elapsed, which is the days left until it is due. So the countdown and the due date never disagree,
 * and an overdue item shows none (its lateness is said instead, by `daysOverdue`).
 * Returns null outside the window and once the due date has passed.
 */
export function dueSoonDays(dueDate: string, on: string = today()): number | null {
  const left = daysBetween(on, dueDate);
  return left >= 0 && left <= DUE_SOON_WINDOW_DAYS ? left : null;
}

/** "Due today", "1 day left", "3 days left to read it": what the count counts (issue 24). */
export function daysLeftText(days: number, purpose?: string): string {
  if (days === 0) return 'Due today';
  return `${days} day${days === 1 ? '' : 's'} left${purpose ? ` ${purpose}` : ''}`;
}

/** "1 day late", "5 days late". */
export const daysLateText = (days: number): string => `${days} day${days === 1 ? '' : 's'} late`;

/** The countdown in words while within the window ("2 days left to read it"), else null. */
export function dueSoonLabel(dueDate: string, on: string = today(), purpose?: string): string | null {
  const days = dueSoonDays(dueDate, on);
  return days === null ? null : daysLeftText(days, purpose);
}

/**
 * spec §5: for a done task, completion date minus due date, floored at 0;
 * for other tasks, days past the due date (also floored at 0).
 */
export function daysOverdue(task: { due_date: string; status: string; completion_date?: string | null }, on: string = today()): number {
  const isDone = ['done', 'completed', 'complete'].includes(task.status.toLowerCase());
  const end = isDone && task.completion_date ? task.completion_date : on;
  return Math.max(0, daysBetween(task.due_date, end));
}

/** An onboarding task's countdown (spec §5, decision 021): while pending and due within 5 days, the days left. */
export function taskDueSoonLabel(task: { status: string; due_date: string }, on: string = today()): string | null {
  if (task.status !== 'pending') return null;
  return dueSoonLabel(task.due_date, on);
}

/** An overdue task reminds its assignee daily and, after this many days overdue, escalates to the manager (issue 13). */
export const ESCALATE_AFTER_DAYS = 3;

export type ComplianceStatus = 'valid' | 'expired' | 'nothing-assigned';

/**
 * A person's compliance badge (issue 10, spec §5 "Expiry check"): expired when any item's expiry date
 * is on or before `on` (the firm's today); valid otherwise. An item without an expiry date (a policy
 * that never lapses) counts as held and valid, unlike `isExpired`'s lists.
 *
 * A person who holds nothing and was assigned nothing reads "Nothing assigned" (issue 22), not
 * expired: spec §5's "an empty list counts as expired" is for lists of items that should exist (a
 * document's required copies), and nobody has asked this person for anything yet
 * (docs/product-spec.md, notes).
 */
export function complianceStatus(items: ReadonlyArray<{ expiry_date: string | null | undefined }>, on: string = today()): ComplianceStatus {
  if (items.length === 0) return 'nothing-assigned';
  return items.some((item) => !!item.expiry_date && item.expiry_date <= on) ? 'expired' : 'valid';
}

/** How the badge reads, and its colour: neutral when nothing is assigned. */
export const complianceBadges: Record<ComplianceStatus, { label: string; tone: 'green' | 'red' | 'gray' }> = {
  valid: { label: 'Valid', tone: 'green' },
  expired: { label: 'Expired', tone: 'red' },
  'nothing-assigned': { label: 'Nothing assigned', tone: 'gray' },
};
