// The expense policy on the settings screen (issue 9): the amount above which a claim needs a
// receipt. GET / PUT /setting/expense; saving needs can-edit-setting, without it the field is read-only.
import { useEffect, useState } from 'react';
import { expenseSettingFormSchema, type ExpenseSetting } from '../../../shared/resources/expense';
import type { AccountType } from '../../../shared/routes';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert, TextField } from '../../ui/field';
import { Skeleton } from '../../ui/loading';

function ExpenseSettingForm({ account, initial, canEdit }: { account: AccountType; initial: ExpenseSetting; canEdit: boolean }) {
  const form = useForm({
    initial: { receipt_threshold: String(initial.receipt_threshold) },
    schema: expenseSettingFormSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: ExpenseSetting; message: string }>('/setting/expense', values, { account, form: true });
      form.reset({ receipt_threshold: String(answer.data.receipt_threshold) });
      notify.success(answer.message);
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-labelledby="expense-setting" className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      <TextField label="Receipt required above" inputMode="decimal" required readOnly={!canEdit} className="max-w-48 tabular-nums"
        hint="A claim of a larger amount, in any currency, needs at least one receipt. 0 asks for one on every claim."
        {...form.field('receipt_threshold')} />
      {canEdit && (
        <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button type="submit" isLoading={form.isSubmitting} aria-label="Save the expense settings">Save</Button>
        </div>
      )}
    </form>
  );
}

export function ExpenseSettingCard({ account, canEdit }: { account: AccountType; canEdit: boolean }) {
  const [setting, setSetting] = useState<ExpenseSetting | null>(null);
  const [hasFailed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    api.get<{ data: ExpenseSetting }>('/setting/expense', { account })
      .then((answer) => { if (active) setSetting(answer.data); })
      .catch(() => { if (active) setFailed(true); }); // the wrapper has shown the message
    return () => { active = false; };
  }, [account]);
  return (
    <Card>
      <CardHeader id="expense-setting" title="Expenses" description="Receipts asked of claimants when they file an expense." />
      {setting
        ? <ExpenseSettingForm account={account} initial={setting} canEdit={canEdit} />
        : hasFailed
          ? <p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">The expense settings could not be loaded.</p>
          : <div role="status" aria-label="Loading" className="space-y-3 px-5 py-5"><Skeleton className="h-4 w-40" /><Skeleton className="h-9 w-48" /></div>}
    </Card>
  );
}
