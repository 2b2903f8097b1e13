// The signed-in person's leave balance for this year (issue 9), per leave type, on the profile:
// GET /api/leave-application/balance (can-view-leave-application).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatDays, type LeaveBalance } from '../../../shared/resources/leave-application';
import { routePath } from '../../../shared/routes';
import { api, isApiError } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { Skeleton } from '../../ui/loading';

export function LeaveBalanceCard({ canApply }: { canApply: boolean }) {
  // A leave application saved here counts against it (query.ts EXTRA_COUNTS): it refetches then.
  const { data: balance = null, error: failure } = useQuery({
    queryKey: queryKeys.screen('leave-balance'),
    queryFn: ({ signal }) => api.get<{ data: LeaveBalance }>('/leave-application/balance', { silent: true, signal }).then((answer) => answer.data),
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'The balance could not be loaded.') : null;

  // What is left comes right after the type, and the cells are narrower on a phone: the last column of
  // five sat beyond a 390 px screen's edge, and the number an engineer opens this card for was that one.
  const head = 'px-2 py-2 text-right text-xs font-medium text-slate-500 first:pl-5 first:text-left last:pr-5 sm:px-3 dark:text-slate-400';
  const cell = 'px-2 py-2.5 text-right tabular-nums first:pl-5 first:text-left last:pr-5 sm:px-3';
  return (
    <Card>
      <CardHeader id="profile-leave" title={`Leave balance${balance ? ` ${balance.year}` : ''}`}
        description="Working days per leave type this calendar year. Pending leave is held until the manager decides."
        actions={canApply && <Link href={routePath('leave-application.create')} className={cx('shrink-0 rounded text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400', focusRing)}>Apply for leave</Link>} />
      {error && <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">{error}</p>}
      {!balance && !error && <div role="status" aria-label="Loading" className="space-y-2 px-5 py-4">{[0, 1, 2].map((i) => <Skeleton key={i} className="h-6" />)}</div>}
      {balance && (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-labelledby="profile-leave">
            <thead className="border-b border-slate-200 dark:border-slate-800">
              <tr>
                <th scope="col" className={head}>Leave type</th>
                <th scope="col" className={head}>Remaining</th>
                <th scope="col" className={head}>Allowance</th>
                <th scope="col" className={head}>Used</th>
                <th scope="col" className={head}>Pending</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700 dark:divide-slate-800 dark:text-slate-300">
              {balance.balances.map((row) => (
                <tr key={row.leave_type_id}>
                  <th scope="row" className={cx(cell, 'font-medium text-slate-900 dark:text-white')}>{row.name}</th>
                  <td className={cx(cell, 'font-semibold text-slate-900 dark:text-white')}>
                    {row.remaining === null ? '—' : <span aria-label={formatDays(row.remaining)}>{row.remaining}</span>}
                  </td>
                  <td className={cell}>{row.allowance === null ? 'No limit' : row.allowance}</td>
                  <td className={cell}>{row.used}</td>
                  <td className={cell}>{row.pending}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
