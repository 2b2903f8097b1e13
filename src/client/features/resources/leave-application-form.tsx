// The leave application form: the generic fields in the order people fill them in, the applicant
// only for those who may file for someone else (a manager for a report, an admin for anyone), and
// beside the dates the balance of the chosen leave type "remaining after this request", counted by
// the server (days outside the working week and the applicant's public holidays do not count). Lives beside the role
// form because the resource screen may not import another feature (eslint import-direction).
import { useEffect, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import {
  formatDays, LEAVE_APPROVE_PERMISSION, LEAVE_BALANCE_READ, type LeaveBalance, type LeaveTypeBalance,
} from '../../../shared/resources/leave-application';
import { api, isApiError } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { isAdmin } from '../../../shared/permissions';
import { auth } from '../../stores/auth';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { isIsoDate } from '../../ui/date-input';
import { loadOptions } from '../../ui/resources/resource-api';
import { ResourceForm, type FormValues, type ResourceFormProps, type ResourceFormState } from '../../ui/resources/resource-form';
import { usePermissionCheck } from '../../ui/resources/resource-list';

/** The fields as the form lays them out: who, what kind, when, then the rest. */
const FIELD_ORDER = ['user_id', 'leave_type_id', 'from_date', 'to_date', 'is_half_day_start', 'is_half_day_end', 'reason', 'client_id', 'back_fill_user_id'];
/** spec §9 rich-text debounce, reused for a query that follows typing. */
const BALANCE_DEBOUNCE_MS = 300;

export function LeaveApplicationForm(props: ResourceFormProps) {
  const { definition, row } = props;
  const { user: me, permissions } = useSnapshot(auth.app);
  const can = usePermissionCheck('app');
  const isAdminAccount = isAdmin(permissions);
  // Managers (who decide leave) and admins may file for someone else; everyone else applies for themselves.
  const mayChooseApplicant = isAdminAccount || can(LEAVE_APPROVE_PERMISSION);
  const keys = FIELD_ORDER.filter((key) => key in definition.fields && (key !== 'user_id' || mayChooseApplicant));
  return (
    <ResourceForm {...props} fieldKeys={keys} label="leave application" submitLabel={row ? 'Save changes' : 'Submit leave application'}
      // Empty means "myself" when applying, "unchanged" when editing (the server reads it so).
      beforeSubmit={(payload) => (payload.user_id === (row ? row.user_id : me?.id) ? { ...payload, user_id: null } : payload)}
      layout={({ field, form }) => (
        <LeaveFields field={field} form={form} definition={definition} row={row} mayChooseApplicant={mayChooseApplicant}
          managerId={isAdminAccount ? null : me?.id ?? null} meId={me?.id} />
      )} />
  );
}

function LeaveFields({ field, form, definition, row, mayChooseApplicant, managerId, meId }: {
  field: (key: string) => ReactNode; form: FormState; definition: ResourceFormProps['definition']; row: ResourceFormProps['row'];
  mayChooseApplicant: boolean; managerId: number | null; meId?: number;
}) {
  const balance = useRequestBalance(form.values, row);
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {mayChooseApplicant && (
        <ApplicantField form={form} label={definition.fields.user_id.label} hint={definition.fields.user_id.help} managerId={managerId} />
      )}
      <div className={cx(!mayChooseApplicant && 'sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]')}>{field('leave_type_id')}</div>
      {field('from_date')}
      {field('to_date')}
      {field('is_half_day_start')}
      {field('is_half_day_end')}
      <div className="sm:col-span-2">
        <BalanceHint balance={balance} leaveTypeId={String(form.values.leave_type_id ?? '')} meId={meId}
          leaveTypeLabel={(form.choices.leave_type_id as ChoiceOption | null)?.label} />
      </div>
      <div className="sm:col-span-2">{field('reason')}</div>
      {field('client_id')}
      <BackFillField form={form} label={definition.fields.back_fill_user_id.label} applicantId={text(form.values.user_id) || (row?.user_id ? String(row.user_id) : '')} />
    </div>
  );
}

type FormState = ResourceFormState;

/** A manager picks among their reports (the people list filtered by manager), an admin among everyone. */
function ApplicantField({ form, label, hint, managerId }: { form: FormState; label: string; hint?: string; managerId: number | null }) {
  const params: Record<string, string> = managerId ? { parent_id: String(managerId) } : {};
  return (
    <SearchableSelect name="user_id" label={label} hint={hint} errors={form.errors.user_id} placeholder="Myself"
      value={(form.choices.user_id as ChoiceOption | null) ?? null} onChange={(choice) => form.setChoice('user_id', choice)}
      load={(search) => loadOptions('user', search, params)} />
  );
}

/** Colleagues who may cover the applicant (GET /leave-application/back-fill-options); reloads when the applicant changes. */
function BackFillField({ form, label, applicantId }: { form: FormState; label: string; applicantId: string }) {
  const load = async (search: string): Promise<ChoiceOption[]> => {
    const answer = await api.get<{ data: ChoiceOption[] }>('/leave-application/back-fill-options', {
      params: { ...(search ? { search } : {}), ...(applicantId ? { user_id: applicantId } : {}) }, silent: true,
    });
    return answer.data;
  };
  return (
    <SearchableSelect name="back_fill_user_id" label={label} errors={form.errors.back_fill_user_id} reloadKey={applicantId}
      hint="Optional: a colleague who could cover; the manager confirms it." placeholder="Search colleagues…"
      value={(form.choices.back_fill_user_id as ChoiceOption | null) ?? null} onChange={(choice) => form.setChoice('back_fill_user_id', choice)} load={load} />
  );
}

const text = (value: FormValues[string] | undefined) => (typeof value === 'string' ? value : '');

type BalanceState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; answer: LeaveBalance } | { status: 'failed'; message: string };

/** GET /leave-application/balance for the applicant and the dates on the form, after typing settles. */
function useRequestBalance(values: FormValues, row: ResourceFormProps['row']): BalanceState {
  const from = text(values.from_date);
  const to = text(values.to_date);
  const applicant = text(values.user_id) || (row?.user_id ? String(row.user_id) : '');
  const params = {
    ...(applicant ? { user_id: applicant } : {}),
    ...(isIsoDate(from) ? { from_date: from, year: from.slice(0, 4) } : {}),
    ...(isIsoDate(from) && isIsoDate(to) ? { to_date: to } : {}),
    is_half_day_start: text(values.is_half_day_start) === 'true' ? 'true' : 'false',
    is_half_day_end: text(values.is_half_day_end) === 'true' ? 'true' : 'false',
    ...(row?.id ? { exclude_id: String(row.id) } : {}),
  };
  const key = JSON.stringify(params);
  // Asked once typing settles; the last answer stays shown meanwhile. A leave application saved
  // anywhere refetches it (query.ts EXTRA_COUNTS: leave balances count leave applications).
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(key), BALANCE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [key]);
  const { data, error } = useQuery<LeaveBalance>({
    queryKey: queryKeys.screen('leave-balance', settled),
    queryFn: ({ signal }) => api.get<{ data: LeaveBalance }>('/leave-application/balance', { params: JSON.parse(settled) as Record<string, string>, silent: true, signal })
      .then((answer) => answer.data)
      // Issue 26: offline, the balance kept since sign-in (LEAVE_BALANCE_READ) stands in: what remains,
      // without this request's days (the server counts those when it is sent).
      .catch((failure: unknown) => {
        if (!isApiError(failure) || failure.status !== null || applicant) throw failure;
        const [path, query] = LEAVE_BALANCE_READ.split('?');
        return api.get<{ data: LeaveBalance }>(path, { params: Object.fromEntries(new URLSearchParams(query)), silent: true, signal })
          .then((answer) => ({ ...answer.data, request: null }));
      }),
    placeholderData: keepPreviousData,
  }, queryClient);
  if (error) return { status: 'failed', message: isApiError(error) ? error.message : 'The balance could not be loaded.' };
  return data ? { status: 'ready', answer: data } : { status: 'loading' };
}

/** The chosen type's balance for the year, this request's days and what remains after it. */
function BalanceHint({ balance, leaveTypeId, leaveTypeLabel, meId }: { balance: BalanceState; leaveTypeId: string; leaveTypeLabel?: string; meId?: number }) {
  const box = 'rounded-lg border px-4 py-3 text-sm';
  const calm = cx(box, 'border-slate-200 bg-slate-50 text-slate-600 dark:border-slate-800 dark:bg-slate-800/40 dark:text-slate-300');
  let content: ReactNode;
  let tone = calm;
  if (!leaveTypeId) {
    content = 'Choose a leave type to see how many days of it remain.';
  } else if (balance.status === 'failed') {
    content = balance.message;
  } else if (balance.status !== 'ready') {
    content = 'Counting your balance…';
  } else {
    const { answer } = balance;
    const type: LeaveTypeBalance | undefined = answer.balances.find((b) => String(b.leave_type_id) === leaveTypeId);
    const name = type?.name ?? leaveTypeLabel ?? 'This leave type';
    const request = answer.request;
    const after = type?.remaining === null || type?.remaining === undefined || !request || request.error ? null : type.remaining - request.days;
    if (after !== null && after < 0) tone = cx(box, 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-500/30 dark:bg-rose-500/10 dark:text-rose-200');
    content = (
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{name} {answer.year}{answer.user.id !== meId ? ` · ${answer.user.name}` : ''}</dt>
          <dd className="font-medium text-slate-900 tabular-nums dark:text-white">
            {!type ? 'Not available' : type.allowance === null ? 'No limit' : `${formatDays(Math.max(type.remaining ?? 0, 0))} left of ${type.allowance}`}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">This request</dt>
          <dd className="font-medium text-slate-900 tabular-nums dark:text-white">
            {!request ? 'Choose the dates' : request.error ? <span className="font-normal">{request.error}</span> : formatDays(request.days)}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">Remaining after this request</dt>
          <dd data-testid="remaining-after-request" className={cx('font-semibold tabular-nums', after !== null && after < 0 ? 'text-rose-700 dark:text-rose-300' : 'text-slate-900 dark:text-white')}>
            {type?.allowance === null ? 'No limit' : after === null ? '—' : after < 0 ? `${formatDays(-after)} over the balance` : formatDays(after)}
          </dd>
        </div>
      </dl>
    );
  }
  return <section aria-live="polite" aria-label="Leave balance" className={tone}>{content}</section>;
}
