// A person's bank details (issue 21): the account their reimbursed expense claims are paid to. On
// the profile for the person themself, and on a reimbursement batch for finance when a payee has
// none. The server refuses anyone else; here the same form serves both.
import { useQuery } from '@tanstack/react-query';
import { bankDetailsSchema } from '../../shared/resources/reimbursement-batch';
import type { BankDetailsAnswer as Answer } from '../../shared/schemas/reimbursement';
import { api } from '../lib/api';
import { useForm } from '../lib/form';
import { invalidateAfterWrite, queryClient, queryKeys } from '../lib/query';
import { notify } from '../lib/toast';
import { Button } from './button';
import { FormAlert, TextField } from './field';
import { Skeleton } from './loading';

/** `isOwn`: the person's own details (profile wording); otherwise finance keeps them for `userId`. */
export function BankDetailsForm({ userId, isOwn, onSaved, onCancel }: { userId: number; isOwn: boolean; onSaved?: () => void; onCancel?: () => void }) {
  // The form starts from an answer fetched for it (isFetchedAfterMount), never from an older cached one.
  const { data: loaded = null, isFetchedAfterMount } = useQuery({
    queryKey: queryKeys.record('bank-details', userId),
    queryFn: ({ signal }) => api.get<Answer>(`/bank-details/${userId}`, { signal }), // a failure is reported by the wrapper
  }, queryClient);
  if (!loaded || !isFetchedAfterMount) return <div role="status" aria-label="Loading" className="space-y-3 px-5 py-5"><Skeleton className="h-9" /><Skeleton className="h-9" /></div>;
  return <Fields key={userId} userId={userId} isOwn={isOwn} initial={loaded} onSaved={onSaved} onCancel={onCancel} />;
}

function Fields({ userId, isOwn, initial, onSaved, onCancel }: { userId: number; isOwn: boolean; initial: Answer; onSaved?: () => void; onCancel?: () => void }) {
  const form = useForm({
    initial: {
      account_holder: initial.data?.account_holder ?? (isOwn ? '' : initial.name),
      account_number: initial.data?.account_number ?? '',
      bank_code: initial.data?.bank_code ?? '',
    },
    schema: bankDetailsSchema,
    onSubmit: async (values) => {
      const answer = await api.put<Answer>(`/bank-details/${userId}`, values, { form: true });
      invalidateAfterWrite('bank-details', userId);
      if (answer.data) form.setValues({ account_holder: answer.data.account_holder, account_number: answer.data.account_number, bank_code: answer.data.bank_code ?? '' });
      notify.success(answer.message ?? 'Saved.');
      onSaved?.();
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-label={isOwn ? 'Your bank details' : `Bank details of ${initial.name}`} className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      {!initial.data && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {isOwn ? 'No bank details yet: approved expense claims cannot be paid to you until you add them.' : `${initial.name} has no bank details yet.`}
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Account holder" autoComplete="name" required {...form.field('account_holder')} />
        <TextField label="IBAN or account number" autoComplete="off" spellCheck={false} required {...form.field('account_number')}
          hint="An IBAN is checked for typing mistakes" />
        <TextField label="BIC or sort code" autoComplete="off" spellCheck={false} {...form.field('bank_code')}
          hint="Also an IFSC or routing number; optional beside an IBAN" />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
        {onCancel && <Button variant="secondary" onClick={onCancel}>Cancel</Button>}
        <Button type="submit" isLoading={form.isSubmitting}>Save bank details</Button>
      </div>
    </form>
  );
}
