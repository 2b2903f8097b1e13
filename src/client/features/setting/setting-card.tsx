// One settings card: loads its setting (GET /setting/{key}), shows a skeleton until it arrives or a
// sentence if it cannot, then the card's form. The Save row is shared too, shown only to editors.
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountType } from '../../../shared/routes';
import { api } from '../../lib/api';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { Skeleton } from '../../ui/loading';

export function SettingCard<T>({ account, path, id, title, description, failure, children }: {
  account: AccountType; path: string; id: string; title: string; description: string;
  /** Said when the setting cannot be loaded: "The time zone could not be loaded." */
  failure: string;
  children: (setting: T) => ReactNode;
}) {
  const { setting, hasFailed } = useSetting<T>(account, path);
  return (
    <Card>
      <CardHeader id={id} title={title} description={description} />
      {setting != null
        ? children(setting)
        : hasFailed
          ? <p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">{failure}</p>
          : <div role="status" aria-label="Loading" className="space-y-3 px-5 py-5"><Skeleton className="h-4 w-40" /><Skeleton className="h-9 w-56" /></div>}
    </Card>
  );
}

/** A setting's name in its path: '/setting/firm' -> 'firm'. */
const settingName = (path: string) => path.replace(/^\/setting\//, '');

/**
 * A setting (GET /setting/{key}) through the query cache. Its form starts from an answer fetched for
 * it (isFetchedAfterMount), never from an older cached one; null until then.
 */
export function useSetting<T>(account: AccountType, path: string): { setting: T | null; hasFailed: boolean } {
  const { data, isError, isFetchedAfterMount } = useQuery({
    queryKey: queryKeys.recordPart('setting', settingName(path), account),
    queryFn: ({ signal }) => api.get<{ data: T }>(path, { account, signal }).then((answer) => answer.data), // the wrapper shows a failure
  }, queryClient);
  return { setting: isFetchedAfterMount && data != null ? data : null, hasFailed: isError };
}

/** After a setting was saved: it refetches, and what counts it (the setup checklist, query.ts EXTRA_COUNTS). */
export function settingSaved(path: string): void {
  invalidateAfterWrite('setting', settingName(path));
}

export function SaveRow({ isSubmitting, label }: { isSubmitting: boolean; label: string }) {
  return (
    <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
      <Button type="submit" isLoading={isSubmitting} aria-label={label}>Save</Button>
    </div>
  );
}
