// The expense policy on the settings screen (issue 9): the amount above which a claim needs a
// receipt. GET / PUT /setting/expense; saving needs can-edit-setting, without it the field is read-only.
import { expenseSettingFormSchema, type ExpenseSetting } from '../../../shared/resources/expense';
import type { AccountType } from '../../../shared/routes';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import { FormAlert, TextField } from '../../ui/field';
import { SaveRow, SettingCard, settingSaved } from './setting-card';

function ExpenseSettingForm({ account, initial, canEdit }: { account: AccountType; initial: ExpenseSetting; canEdit: boolean }) {
  const form = useForm({
    initial: { receipt_threshold: String(initial.receipt_threshold) },
    schema: expenseSettingFormSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: ExpenseSetting; message: string }>('/setting/expense', values, { account, form: true });
      settingSaved('/setting/expense');
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
      {canEdit && <SaveRow isSubmitting={form.isSubmitting} label="Save the expense settings" />}
    </form>
  );
}

export function ExpenseSettingCard({ account, canEdit }: { account: AccountType; canEdit: boolean }) {
  return (
    <SettingCard<ExpenseSetting> account={account} path="/setting/expense" id="expense-setting" title="Expenses"
      description="Receipts asked of claimants when they file an expense." failure="The expense settings could not be loaded.">
      {(setting) => <ExpenseSettingForm account={account} initial={setting} canEdit={canEdit} />}
    </SettingCard>
  );
}
