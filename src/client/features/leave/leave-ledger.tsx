// The leave ledger (route leave-application.ledger, issue 28): for one person and year, per leave type,
// what was accrued, carried from last year, expired, adjusted by HR and taken, and the balance they
// make (GET /api/leave-application/ledger; the server decides whose ledger the caller may read). A
// manager or an admin picks the person; an admin adds an adjustment with its reason.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { useLocation, useSearch } from 'wouter';
import { formatDays, LEAVE_APPROVE_PERMISSION } from '../../../shared/resources/leave-application';
import type { LeaveLedger, LedgerLineKind, LedgerTypeYear } from '../../../shared/resources/leave-ledger';
import { isAdmin } from '../../../shared/permissions';
import { routePath } from '../../../shared/routes';
import { today } from '../../../shared/dates';
import { api, fieldErrorsOf, isApiError, type FieldErrors } from '../../lib/api';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import type { ScreenProps } from '../../routes';
import { auth, useCan } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { loadOptions } from '../../ui/resources/resource-api';
import { BackLink } from '../../ui/resources/resource-detail';
import { TextAreaField } from '../../ui/textarea-field';

const kindText: Record<LedgerLineKind, string> = { carried: 'Carried', accrued: 'Accrued', adjusted: 'Adjusted', taken: 'Taken', expired: 'Expired' };
const kindTone: Record<LedgerLineKind, string> = {
  carried: 'text-sky-700 dark:text-sky-300', accrued: 'text-emerald-700 dark:text-emerald-300', adjusted: 'text-indigo-700 dark:text-indigo-300',
  taken: 'text-slate-700 dark:text-slate-300', expired: 'text-rose-700 dark:text-rose-300',
};
/** +2, -1.5: a line's effect on the balance. */
const signed = (days: number) => `${days > 0 ? '+' : days < 0 ? '−' : ''}${Math.abs(days)}`;

function useLedger(userId: string | null, year: number) {
  return useQuery({
    // A summary of the leave applications: a leave saved or decided refetches it.
    queryKey: queryKeys.summary('leave-application', 'ledger', userId ?? 'me', year),
    queryFn: ({ signal }) => api.get<{ data: LeaveLedger }>('/leave-application/ledger', {
      params: { year: String(year), ...(userId ? { user_id: userId } : {}) }, silent: true, signal,
    }).then((answer) => answer.data),
  }, queryClient);
}

export default function LeaveLedgerScreen(_props: ScreenProps) {
  const search = new URLSearchParams(useSearch());
  const [pathname, navigate] = useLocation();
  const { permissions } = useSnapshot(auth.app);
  const can = useCan('app');
  const isHr = isAdmin(permissions);
  const mayChoosePerson = isHr || can(LEAVE_APPROVE_PERMISSION);
  const thisYear = Number(today().slice(0, 4));
  const year = Number(/^\d{4}$/.test(search.get('year') ?? '') ? search.get('year') : thisYear);
  const userId = /^\d+$/.test(search.get('user_id') ?? '') ? search.get('user_id') : null;
  const [person, setPerson] = useState<ChoiceOption | null>(null);
  const { data: ledger, error } = useLedger(userId, year);

  const go = (next: { year?: number; user_id?: string | null }) => {
    const params = new URLSearchParams();
    const nextUser = next.user_id === undefined ? userId : next.user_id;
    if (nextUser) params.set('user_id', nextUser);
    params.set('year', String(next.year ?? year));
    navigate(`${pathname}?${params.toString()}`);
  };
  const failure = error ? (isApiError(error) ? error.message : 'The ledger could not be loaded.') : null;
  const whose = ledger && userId ? `${ledger.user.name}'s` : 'Your';

  return (
    <>
      <BackLink href={routePath('leave-application.index')}>Back to leave applications</BackLink>
      <PageHeader title="Leave Ledger"
        description="Each leave type's days for the year: accrued, carried from last year, expired, adjusted by HR and taken. The balance is what they add up to." />
      <Card>
        <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
          <div className="min-w-0">
            <h2 id="ledger-title" className="text-base font-semibold text-slate-900 dark:text-white" aria-live="polite">
              {ledger ? `${whose} leave in ${year}` : `Leave in ${year}`}
            </h2>
            {ledger && <p className="text-sm text-slate-500 dark:text-slate-400">Counted to {ledger.as_of}.</p>}
          </div>
          <div className="flex flex-wrap items-end gap-2">
            {mayChoosePerson && (
              <div className="w-60 max-w-full">
                <SearchableSelect name="ledger_user" label="Person" placeholder="Myself" value={person}
                  onChange={(choice) => { setPerson(choice); go({ user_id: choice ? String(choice.id) : null }); }}
                  load={(term) => loadOptions('user', term, {})} />
              </div>
            )}
            <Button variant="secondary" size="sm" onClick={() => go({ year: year - 1 })} aria-label="Previous year">
              <Icon name="chevron-left" className="size-4" /><span className="hidden sm:inline">{year - 1}</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => go({ year: thisYear })} disabled={year === thisYear}>This year</Button>
            <Button variant="secondary" size="sm" onClick={() => go({ year: year + 1 })} aria-label="Next year">
              <span className="hidden sm:inline">{year + 1}</span><Icon name="chevron-right" className="size-4" />
            </Button>
          </div>
        </div>
        {failure && <EmptyState icon="alert" title={failure} />}
        {!ledger && !failure && (
          <div role="status" aria-label="Loading" className="space-y-2 p-5">{[0, 1, 2, 3].map((i) => <Skeleton key={i} className="h-8" />)}</div>
        )}
        {ledger && !ledger.types.length && <EmptyState title="No leave types" description="HR has not set up any leave type yet." />}
      </Card>
      {ledger && ledger.types.map((type) => <TypeLedger key={type.leave_type_id} type={type} />)}
      {ledger && isHr && <AdjustmentForm ledger={ledger} />}
    </>
  );
}

function TypeLedger({ type }: { type: LedgerTypeYear }) {
  const id = `ledger-type-${type.leave_type_id}`;
  const figures: [string, string][] = type.allowance === null
    ? [['Taken', String(type.taken)], ['Pending', String(type.pending)]]
    : [
      ['Accrued', String(type.accrued)], ['Carried', String(type.carried)], ['Expired', String(type.expired)], ['Adjusted', signed(type.adjusted) || '0'],
      ['Taken', String(type.taken)], ['Pending', String(type.pending)],
    ];
  const description = type.allowance === null
    ? 'No limit: only the days taken are counted.'
    : `${type.accrual === 'monthly' ? 'Accrues a twelfth of the allowance each month' : 'The whole allowance on 1 January'}. ${formatDays(type.remaining ?? 0)} remaining.`;
  return (
    <Card className="mt-4">
      <CardHeader id={id} title={`${type.name} leave`} description={description}
        actions={type.remaining !== null && (
          <p className="text-right"><span className="block text-xs text-slate-500 dark:text-slate-400">Remaining</span>
            <span className="text-xl font-semibold tabular-nums text-slate-900 dark:text-white">{type.remaining}</span></p>
        )} />
      <dl className={cx('grid gap-px border-b border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800', figures.length > 2 ? 'grid-cols-3 sm:grid-cols-6' : 'grid-cols-2')}>
        {figures.map(([label, value]) => (
          <div key={label} className="bg-white px-4 py-2 dark:bg-slate-900">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="text-sm font-medium tabular-nums text-slate-900 dark:text-white">{value}</dd>
          </div>
        ))}
      </dl>
      {type.lines.length === 0
        ? <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">Nothing in this year yet.</p>
        : (
          <table className="w-full text-sm" aria-labelledby={id}>
            <thead className="sr-only sm:not-sr-only">
              <tr className="border-b border-slate-200 text-left text-xs font-medium text-slate-500 dark:border-slate-800 dark:text-slate-400">
                <th scope="col" className="py-2 pl-5 pr-3">Date</th>
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">Entry</th>
                <th scope="col" className="px-3 py-2">Details</th>
                <th scope="col" className="py-2 pl-3 pr-5 text-right">Days</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 text-slate-700 dark:divide-slate-800 dark:text-slate-300">
              {type.lines.map((line, index) => (
                <tr key={index} className="align-top">
                  <td className="whitespace-nowrap py-2.5 pl-5 pr-3 tabular-nums">
                    {line.date}
                    {/* At phone width the entry goes under its date, leaving the details room. */}
                    <span className={cx('block font-medium sm:hidden', kindTone[line.kind])}>{kindText[line.kind]}</span>
                  </td>
                  <td className={cx('hidden px-3 py-2.5 font-medium sm:table-cell', kindTone[line.kind])}>{kindText[line.kind]}</td>
                  <td className="px-3 py-2.5 break-words">
                    {line.leave_application_id
                      ? <a className="text-indigo-600 hover:underline dark:text-indigo-400" href={routePath('leave-application.show', { id: line.leave_application_id })}>{line.note}</a>
                      : line.note}
                  </td>
                  <td className="whitespace-nowrap py-2.5 pl-3 pr-5 text-right font-medium tabular-nums">{signed(line.days)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </Card>
  );
}

/** HR's correction: days added or taken away, with the reason the person reads on their ledger. */
function AdjustmentForm({ ledger }: { ledger: LeaveLedger }) {
  const limited = ledger.types.filter((type) => type.allowance !== null);
  const [typeId, setTypeId] = useState('');
  const [days, setDays] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'success' } | null>(null);
  const [isSaving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setMessage(null);
    try {
      const answer = await api.post<{ data: LeaveLedger; message: string }>('/leave-application/ledger/adjustments', {
        user_id: ledger.user.id, leave_type_id: Number(typeId) || 0, year: ledger.year, days: days.trim() === '' ? null : Number(days), reason,
      }, { silent: true });
      setErrors({});
      setDays('');
      setReason('');
      setMessage({ text: answer.message, tone: 'success' });
      invalidateAfterWrite('leave-application');
    } catch (failure) {
      setErrors(fieldErrorsOf(failure));
      setMessage({ text: isApiError(failure) ? failure.message : 'The adjustment could not be saved.', tone: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className="mt-4">
      <CardHeader id="ledger-adjust" title="Adjust the balance"
        description={`Add days to ${ledger.user.name}'s ${ledger.year} balance, or take days away with a negative number. The reason shows on their ledger.`} />
      <form onSubmit={submit} className="grid gap-4 px-5 py-4 sm:grid-cols-2" aria-labelledby="ledger-adjust" noValidate>
        {message && <div className="sm:col-span-2"><FormAlert message={message.text} tone={message.tone} /></div>}
        <SelectField name="leave_type_id" label="Leave type" required value={typeId} onChange={(e) => setTypeId(e.target.value)}
          options={limited.map((type) => ({ value: type.leave_type_id, label: type.name }))} errors={errors.leave_type_id} />
        <TextField name="days" label="Days" required inputMode="decimal" value={days} onChange={(e) => setDays(e.target.value)}
          hint="Whole or half days; negative takes days away." errors={errors.days} />
        <div className="sm:col-span-2">
          <TextAreaField name="reason" label="Reason" required rows={2} value={reason} onChange={(e) => setReason(e.target.value)} errors={errors.reason} />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" isLoading={isSaving}>Add adjustment</Button>
        </div>
      </form>
    </Card>
  );
}
