// Approvals While Away (issue 28, decisions 036 and 041): a manager hands their approvals to another manager
// for a range of days, and sees what is handed over both ways, with withdraw. An admin does it for any
// manager and sees every hand-over. The server decides who may (GET/POST/DELETE /api/delegation).
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useSnapshot } from 'valtio';
import type { z } from 'zod';
import { addDays, today } from '../../../shared/dates';
import { isAdmin } from '../../../shared/permissions';
import { dayName } from '../../../shared/resources/offline-words';
import {
  delegationInputSchema, type Delegation, type delegationCandidatesResponse, type delegationListResponse,
} from '../../../shared/schemas/delegation';
import { api, type FieldErrors } from '../../lib/api';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { auth } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DateField } from '../../ui/date-input';
import { EmptyState } from '../../ui/empty-state';
import { FormAlert } from '../../ui/field';
import { Skeleton } from '../../ui/loading';
import { TextAreaField } from '../../ui/textarea-field';

type DelegationList = z.infer<typeof delegationListResponse>['data'];
type Candidates = z.infer<typeof delegationCandidatesResponse>['data'];

const listKey = queryKeys.screen('delegation');
const candidatesKey = (managerId: number | null) => queryKeys.screen('delegation', 'candidates', managerId);

/** The hand-overs of the list and the candidates are one screen's: a change refetches both. */
const refetchAll = () => queryClient.invalidateQueries({ queryKey: listKey });

interface HandOverValues { manager: ChoiceOption | null; delegate: ChoiceOption | null; starts_on: string; ends_on: string; note: string }
/**
 * Five days from the first day free of the caller's own hand-overs: the server refuses days that share
 * one with a hand-over not yet over, so the form does not start on days already handed over.
 */
function emptyHandOver(given: readonly Delegation[] = []): HandOverValues {
  let first = today();
  for (const item of [...given].sort((a, b) => a.starts_on.localeCompare(b.starts_on))) {
    if (item.starts_on <= addDays(first, 4) && item.ends_on >= first) first = addDays(item.ends_on, 1);
  }
  return { manager: null, delegate: null, starts_on: first, ends_on: addDays(first, 4), note: '' };
}
const handOverPayload = (values: HandOverValues) => ({
  ...(values.manager ? { manager_id: Number(values.manager.id) } : {}),
  // A missing delegate is left out, so the schema says to choose one.
  ...(values.delegate ? { delegate_id: Number(values.delegate.id) } : {}),
  starts_on: values.starts_on, ends_on: values.ends_on, note: values.note.trim() || null,
});

/** Managers whose name holds the typed words, from the list the server offers (at most a few hundred). */
const loaderOf = (candidates: Candidates | undefined) => async (term: string) => {
  const words = term.trim().toLowerCase();
  return (candidates ?? []).filter((candidate) => candidate.label.toLowerCase().includes(words)).map(({ id, label }) => ({ id, label }));
};

function useCandidates(managerId: number | null, isWanted = true) {
  return useQuery({
    queryKey: candidatesKey(managerId),
    queryFn: ({ signal }) => api.get<{ data: Candidates }>('/delegation/candidates', {
      params: managerId ? { manager_id: managerId } : {}, signal,
    }).then((answer) => answer.data),
    enabled: isWanted,
  }, queryClient);
}

export default function DelegationScreen(_props: ScreenProps) {
  const { permissions } = useSnapshot(auth.app);
  const isAdminCaller = isAdmin(permissions);
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => api.get<{ data: DelegationList }>('/delegation', { signal }).then((answer) => answer.data),
  }, queryClient);
  const data = list.data;

  // A notification's link names a hand-over (#hand-over-12): shown once the list is here.
  useEffect(() => {
    if (!data || !window.location.hash.startsWith('#hand-over-')) return;
    document.getElementById(window.location.hash.slice(1))?.scrollIntoView?.({ block: 'center' });
  }, [data]);

  return (
    <>
      <PageHeader title="Approvals While Away"
        description={isAdminCaller
          ? 'Hand a manager\'s approvals to another manager while they are away. On those days the other manager sees and decides their team\'s leave, expense claims and time sheets, and each decision says on whose behalf it was made. A hand-over ends by itself after its last day.'
          : 'Hand your approvals to another manager while you are away. On those days they see and decide your team\'s leave, expense claims and time sheets, and each decision says it was made on your behalf. A hand-over ends by itself after its last day.'} />
      <div className="space-y-6">
        {data?.can_delegate && <HandOverForm isAdminCaller={isAdminCaller} given={isAdminCaller ? [] : data.given} />}
        <HandOverList data={data} isLoading={list.isPending} isAdminCaller={isAdminCaller} />
      </div>
    </>
  );
}

function HandOverForm({ isAdminCaller, given }: { isAdminCaller: boolean; given: readonly Delegation[] }) {
  const resolver = payloadResolver<HandOverValues>(delegationInputSchema, handOverPayload, (values) => {
    const found: FieldErrors = {};
    if (isAdminCaller && !values.manager) found.manager_id = ['Choose the manager whose approvals are handed over.'];
    if (values.starts_on && values.ends_on && values.ends_on < values.starts_on) found.ends_on = ['The last day must be on or after the first day.'];
    return found;
  });
  const form = useForm<HandOverValues>({ defaultValues: emptyHandOver(given), resolver });
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const managerId = values.manager ? Number(values.manager.id) : null;
  // An admin first chooses whose approvals (every manager), then who decides for them (the others).
  const managers = useCandidates(null, isAdminCaller);
  const delegates = useCandidates(isAdminCaller ? managerId : null, !isAdminCaller || managerId !== null);
  const set = <K extends keyof HandOverValues>(key: K) => (value: HandOverValues[K]) => {
    form.setValue(key, value as never, { shouldDirty: true });
    // The server names the choices by their ids.
    form.clearErrors([key, ...(key === 'manager' || key === 'delegate' ? [`${key}_id`] : [])] as never);
  };
  const create = useMutation({
    mutationFn: (payload: ReturnType<typeof handOverPayload>) => api.post<{ data: Delegation; message: string }>('/delegation', payload, { form: true }),
    onSuccess: () => refetchAll(),
  }, queryClient);

  const onSubmit = form.handleSubmit((checked) => submitForm(form, () => create.mutateAsync(handOverPayload(checked)), {
    // The server names manager_id and delegate_id; the form holds them as manager and delegate.
    isField: (path) => ['manager_id', 'delegate_id', 'starts_on', 'ends_on', 'note'].includes(path),
    onSaved: (answer) => {
      notify.success(answer.message);
      form.reset(emptyHandOver([...given, answer.data]));
    },
  }));
  const noOthers = delegates.data && delegates.data.length === 0;

  return (
    <Card>
      <CardHeader id="hand-over-form" title={isAdminCaller ? 'Hand a manager\'s approvals over' : 'Hand your approvals over'}
        description={`Choose the manager who decides for ${isAdminCaller ? 'them' : 'you'} and the days, both included. They are told at once.`} />
      <form onSubmit={onSubmit} noValidate aria-labelledby="hand-over-form" className="space-y-5 px-4 py-5 sm:px-5">
        <FormAlert message={formMessage(form)} />
        <div className="grid gap-5 sm:grid-cols-2">
          {isAdminCaller && (
            <SearchableSelect name="manager_id" label="Whose approvals" required value={values.manager}
              onChange={(choice) => { set('manager')(choice); set('delegate')(null); }}
              load={loaderOf(managers.data)} reloadKey={String(managers.dataUpdatedAt)} errors={errors.manager_id ?? errors.manager} />
          )}
          <SearchableSelect name="delegate_id" label={isAdminCaller ? 'Manager who decides for them' : 'Manager who decides for you'} required
            value={values.delegate} onChange={set('delegate')} disabled={isAdminCaller && !values.manager}
            load={loaderOf(delegates.data)} reloadKey={`${managerId ?? ''}:${delegates.dataUpdatedAt}`} errors={errors.delegate_id ?? errors.delegate}
            hint={isAdminCaller && !values.manager ? 'Choose whose approvals first.' : 'Any other active manager.'}
            emptyChoices={noOthers ? { message: 'There is no other active manager to hand approvals to.' } : undefined} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <DateField name="starts_on" label="First day" required value={values.starts_on} onChange={set('starts_on')} errors={errors.starts_on} />
          <DateField name="ends_on" label="Last day" required value={values.ends_on} onChange={set('ends_on')} errors={errors.ends_on} />
        </div>
        <TextAreaField name="note" label="Note" rows={2} value={values.note} onChange={(event) => set('note')(event.target.value)} errors={errors.note}
          hint={`Optional. The other manager reads it with the news, for example where ${isAdminCaller ? 'the' : 'your'} team's open questions are.`} />
        <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button type="submit" isLoading={form.formState.isSubmitting}>Hand over</Button>
        </div>
      </form>
    </Card>
  );
}

function HandOverList({ data, isLoading, isAdminCaller }: { data: DelegationList | undefined; isLoading: boolean; isAdminCaller: boolean }) {
  const [withdrawing, setWithdrawing] = useState<Delegation | null>(null);
  const withdraw = useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/delegation/${id}`),
    onSuccess: (answer) => { notify.success(answer.message); setWithdrawing(null); return refetchAll(); },
  }, queryClient);
  const isEmpty = data && !data.given.length && !data.received.length && !data.others.length;

  return (
    <Card>
      <CardHeader id="hand-overs" title="Current and coming hand-overs" description="Until their last day. Those that have ended are not shown." />
      {isLoading && (
        <div role="status" aria-label="Loading the hand-overs" className="space-y-3 p-5">
          {[0, 1].map((i) => <Skeleton key={i} className="h-12" />)}
        </div>
      )}
      {isEmpty && (
        <EmptyState icon="users" title="Nothing is handed over"
          description={isAdminCaller
            ? 'No manager has handed their approvals over. Hand a manager\'s over above while they are away.'
            : data.can_delegate
              ? 'Your approvals are yours, and nobody has handed theirs to you. Hand yours over above before you go away.'
              : 'Nobody has handed their approvals to you.'} />
      )}
      {data && !isEmpty && (
        <div className="divide-y divide-slate-200 dark:divide-slate-800">
          <Section title="Your approvals, handed over" items={data.given} onWithdraw={setWithdrawing} />
          <Section title="Approvals handed to you" items={data.received} />
          {isAdminCaller && <Section title="Between other managers" items={data.others} onWithdraw={setWithdrawing} />}
        </div>
      )}
      <ConfirmDialog open={!!withdrawing} title="Take the approvals back?"
        message={withdrawing ? withdrawMessage(withdrawing, data) : undefined}
        confirmLabel="Withdraw" isLoading={withdraw.isPending}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.id)} onClose={() => setWithdrawing(null)} />
    </Card>
  );
}

/** What taking it back does, said to the one who does it. */
function withdrawMessage(item: Delegation, data: DelegationList | undefined) {
  const isOwn = data?.given.some((given) => given.id === item.id);
  if (isOwn) return `${item.delegate.name} will no longer decide your approvals, and is told so.`;
  return `${item.delegate.name} will no longer decide ${item.manager.name}'s approvals. Both are told so.`;
}

function Section({ title, items, onWithdraw }: { title: string; items: Delegation[]; onWithdraw?: (item: Delegation) => void }) {
  if (!items.length) return null;
  return (
    <section className="px-4 py-4 sm:px-5" aria-label={title}>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
      <ul className="mt-2 space-y-2">
        {items.map((item) => (
          <li key={item.id} id={`hand-over-${item.id}`}
            className="flex scroll-mt-24 flex-col gap-3 rounded-lg border border-slate-200 p-3 target:ring-2 target:ring-indigo-500 sm:flex-row sm:items-center sm:justify-between dark:border-slate-700">
            <div className="min-w-0 space-y-1">
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
                <StateBadge item={item} />
                <span>{item.sentence}</span>
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                From {dayName(item.starts_on)} to {dayName(item.ends_on)}, both included.
              </p>
              {/* Its manager lost the permission, or one of the two is inactive: the server no longer applies it. */}
              {item.no_effect && <p className="text-sm text-amber-800 dark:text-amber-300">{item.no_effect}</p>}
              {item.note && <p className="text-sm break-words text-slate-600 dark:text-slate-300">Note: {item.note}</p>}
            </div>
            {onWithdraw && (
              <Button variant="secondary" size="sm" className="self-start sm:self-center" onClick={() => onWithdraw(item)}>Withdraw</Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** In force, coming, or held back by its parties (the server's `no_effect`). */
function StateBadge({ item }: { item: Delegation }) {
  if (item.no_effect) return <Badge tone="amber">No effect</Badge>;
  return <Badge tone={item.is_in_force ? 'green' : 'indigo'}>{item.is_in_force ? 'In force' : 'Coming'}</Badge>;
}
