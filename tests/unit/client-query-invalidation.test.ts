// What a write or a live event marks stale in the query cache (src/client/lib/query.ts): the figures
// computed from a resource's records follow it (a background check's Result from its components, an
// onboarding's open tasks from its tasks, a pre-billing's comparison from the time sheets), and a live
// event reaches only the resource and record it names. The browser journeys are in tests/e2e/query-cache.
import { QueryObserver, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAfterWrite, invalidateLive, queryClient, queryKeys } from '../../src/client/lib/query';

/** A query on screen (an observer keeps it active), answered once. */
async function onScreen(queryKey: QueryKey) {
  const observer = new QueryObserver(queryClient, { queryKey, queryFn: () => ({ at: Date.now() }) });
  const unsubscribe = observer.subscribe(() => {});
  await observer.refetch();
  return {
    isStale: () => queryClient.getQueryState(queryKey)?.isInvalidated ?? false,
    unsubscribe,
  };
}

describe('what counts a resource', () => {
  it('refetches a background check when one of its components is saved', async () => {
    const check = await onScreen(queryKeys.record('bgv-check', 7));
    const other = await onScreen(queryKeys.list('candidate', {}));
    invalidateAfterWrite('bgv-check-component', 41);
    expect(check.isStale()).toBe(true);
    expect(other.isStale()).toBe(false);
    check.unsubscribe(); other.unsubscribe();
  });

  it('refetches an onboarding when one of its tasks is marked done', async () => {
    const onboarding = await onScreen(queryKeys.record('onboarding', 3));
    invalidateAfterWrite('onboarding-task', 12);
    expect(onboarding.isStale()).toBe(true);
    onboarding.unsubscribe();
  });

  it('refetches a pre-billing comparison when a time sheet is approved, here or live', async () => {
    const key = queryKeys.preBillingComparison('5', '2026-11-01T00:00:00Z');
    const comparison = await onScreen(key);
    invalidateAfterWrite('time-sheet', 9);
    expect(comparison.isStale()).toBe(true);
    await queryClient.refetchQueries({ queryKey: key });
    expect(comparison.isStale()).toBe(false);
    invalidateLive('time-sheet', 9);
    expect(comparison.isStale()).toBe(true);
    comparison.unsubscribe();
  });

  it('refetches the dashboard for the resources it counts, and not for others', async () => {
    const dashboard = await onScreen(queryKeys.dashboard('app'));
    invalidateAfterWrite('holiday', 1);
    expect(dashboard.isStale()).toBe(false);
    invalidateAfterWrite('manager', 4);
    expect(dashboard.isStale()).toBe(true);
    dashboard.unsubscribe();
  });
});

describe('a live event', () => {
  it('refetches the record it names and its resource\'s lists, not the lists of its children', async () => {
    const record = await onScreen(queryKeys.record('onboarding', 3));
    const tasks = await onScreen(queryKeys.list('onboarding-task', { onboarding_id: 3 }));
    const otherRecord = await onScreen(queryKeys.record('onboarding', 4));
    invalidateLive('onboarding', 3);
    expect(record.isStale()).toBe(true);
    expect(tasks.isStale()).toBe(false);
    expect(otherRecord.isStale()).toBe(false);
    for (const query of [record, tasks, otherRecord]) query.unsubscribe();
  });
});
