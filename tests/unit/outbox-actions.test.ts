// @vitest-environment jsdom
// Issue 26: what queues offline is declared on the definitions (`offline`), not kept in a hand list; each
// queued kind is listed by its declared sentence; decisions never queue; the prefetch after sign-in asks
// for the options and reads each account's queued forms need.
import { describe, expect, it } from 'vitest';
import {
  isQueuedDelete, isQueuedSave, isQueuedTransition, offlineOptionsOf, queuedActionWords, queuedDeleteWords, queuedSaveWords, queuedTransitionWords,
} from '../../src/client/lib/outbox-actions';
import { offlinePrefetchOf } from '../../src/client/lib/outbox-prefetch';
import { resourceByName, resourceDefinitions } from '../../src/shared/resources/registry';
import { daySpan, dayName, monthName, moneyOf, quoted } from '../../src/shared/resources/offline-words';
import { LEAVE_BALANCE_READ } from '../../src/shared/resources/leave-application';

const byName = (name: string) => resourceByName[name];

describe('what queues offline, read from the definitions', () => {
  it('saves, deletes and self-service steps of the issue queue; nothing else does', () => {
    expect(resourceDefinitions.filter((d) => isQueuedSave(d.name)).map((d) => d.name).sort())
      .toEqual(['expense', 'leave-application', 'partner-invoice', 'pre-billing']);
    expect(resourceDefinitions.filter((d) => isQueuedDelete(d.name)).map((d) => d.name)).toEqual(['expense']);
    const steps = resourceDefinitions.flatMap((d) => (d.workflow?.transitions ?? []).filter((t) => isQueuedTransition(d.name, t.name)).map((t) => `${d.name}:${t.name}`));
    expect(steps.sort()).toEqual([
      'document-assign-history:acknowledge', 'leave-application:withdraw', 'onboarding-task:complete', 'onboarding-task:reopen', 'request:complete', 'request:start',
      'time-sheet:withdraw',
    ]);
  });

  it('never queues a decision: no transition guarded as someone else\'s record, or under an approve / review permission, declares offline', () => {
    for (const definition of resourceDefinitions) {
      for (const transition of definition.workflow?.transitions ?? []) {
        if (!transition.offline) continue;
        expect(transition.guards ?? [], `${definition.name}:${transition.name}`).not.toContain('notOwnRecord');
        expect(transition.permission, `${definition.name}:${transition.name}`).not.toMatch(/approve|review/);
      }
    }
  });

  it('a queued form keeps its references\' choices and the declared extra ones', () => {
    expect(offlineOptionsOf(byName('expense'))).toEqual(expect.arrayContaining(['expense-category', 'client']));
    expect(offlineOptionsOf(byName('pre-billing'))).toEqual(expect.arrayContaining(['partner-engineer', 'partner/client']));
  });
});

describe('the declared words of each queued kind', () => {
  it('says a leave, a claim and a statement as a person would', () => {
    const leave = byName('leave-application');
    expect(queuedSaveWords(leave, { from_date: '2026-12-24', to_date: '2026-12-29' }, false)).toBe('Your leave application for 24–29 December 2026');
    expect(queuedTransitionWords(leave, 'withdraw', { from_date: '2026-12-24', to_date: '2026-12-29' })).toBe('Your leave application for 24–29 December 2026, to withdraw');
    const expense = byName('expense');
    expect(queuedSaveWords(expense, { description: 'Taxi from the airport', amount: 1250.5, currency: 'INR' }, false).replace(/\u00a0/g, ' ')).toBe('Your expense claim “Taxi from the airport” for INR 1,250.50');
    expect(queuedDeleteWords(expense, { description: 'Taxi' })).toBe('Your expense claim “Taxi”, to withdraw');
    expect(queuedSaveWords(byName('pre-billing'), { month: '2026-03' }, true)).toBe('Your corrections to the pre-billing statement for March 2026');
    expect(queuedActionWords(byName('document-assign-history'), 'copy', { document_title: 'NDA', file_name: 'nda.jpg' })).toBe('Your signed copy of “NDA” (nda.jpg)');
    expect(queuedActionWords(byName('request'), 'comment', { title: 'Laptops', body: 'On my way' })).toBe('Your comment on the request “Laptops”: “On my way”');
    expect(() => queuedActionWords(byName('expense'), 'comment', {})).toThrow(/declares no offline action/);
  });

  it('writes days, spans, months, amounts and quotes plainly', () => {
    expect(dayName('2026-01-05')).toBe('5 January 2026');
    expect(daySpan('2026-12-24', '2026-12-24')).toBe('24 December 2026');
    expect(daySpan('2026-11-30', '2026-12-02')).toBe('30 November – 2 December 2026');
    expect(daySpan('2026-12-30', '2027-01-02')).toBe('30 December 2026 – 2 January 2027');
    expect(monthName('2026-03-01')).toBe('March 2026');
    expect(moneyOf({ amount: '', currency: 'EUR' })).toBe('');
    expect(quoted('a'.repeat(80), 10)).toBe(`“${'a'.repeat(9)}…”`);
  });
});

describe('the prefetch after sign-in', () => {
  it('asks an engineer\'s leave types, balance, categories and clients; a partner\'s engineers, rates, clients and approved statements', () => {
    const staff = offlinePrefetchOf('app', (permission) => !!permission && ['can-create-leave-application', 'can-add-expense'].includes(permission));
    expect(staff.options).toEqual(expect.arrayContaining(['leave-type', 'expense-category', 'client']));
    expect(staff.reads).toEqual([LEAVE_BALANCE_READ]);
    const partner = offlinePrefetchOf('partner', (permission) => !!permission && ['can-add-pre-billing', 'can-add-invoice'].includes(permission));
    expect(partner.options).toEqual(expect.arrayContaining(['partner-engineer', 'partner/client']));
    expect(partner.reads.sort()).toEqual(['/partner/engineer?per_page=100', '/partner/invoice/billable']);
    expect(offlinePrefetchOf('app', () => false)).toEqual({ options: [], reads: [] });
  });
});
