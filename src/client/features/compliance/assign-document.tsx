// Assign Document (issue 10, spec /document-assign): documents of the library to people picked one by
// one or as groups (an employee type, a manager's team, a client's placements), with a due date and a
// message. The server assigns them all in one go and tells each person live and by mail.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { assignDocumentSchema, type AssignDocumentResult } from '../../../shared/resources/document-assignment';
import { routePath } from '../../../shared/routes';
import { addDays, today } from '../../../shared/dates';
import { api, type FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button, focusRing } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { type ChoiceOption, MultiSearchableSelect } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { DateField } from '../../ui/date-input';
import { FormAlert } from '../../ui/field';
import { TextAreaField } from '../../ui/textarea-field';
import { loadOptions } from '../../ui/resources/resource-api';
import { useEmptyChoices } from '../../ui/resources/empty-choices';

const ids = (options: ChoiceOption[]) => options.map((option) => Number(option.id));
const dayAfter = (days: number) => addDays(today(), days);

interface AssignValues {
  document_ids: ChoiceOption[]; user_ids: ChoiceOption[]; employee_type_ids: ChoiceOption[]; manager_ids: ChoiceOption[]; client_ids: ChoiceOption[];
  due_date: string; message: string;
}
const emptyAssignment = (): AssignValues =>
  ({ document_ids: [], user_ids: [], employee_type_ids: [], manager_ids: [], client_ids: [], due_date: dayAfter(14), message: '' });
const assignPayload = (values: AssignValues) => ({
  document_ids: ids(values.document_ids), user_ids: ids(values.user_ids), employee_type_ids: ids(values.employee_type_ids),
  manager_ids: ids(values.manager_ids), client_ids: ids(values.client_ids), due_date: values.due_date, message: values.message.trim() || null,
});
const assignResolver = payloadResolver<AssignValues>(assignDocumentSchema, assignPayload, (values, payload) => {
  const found: FieldErrors = {};
  if (values.due_date && values.due_date < today()) found.due_date = ['The due date must be today or later.'];
  if (!['user_ids', 'employee_type_ids', 'manager_ids', 'client_ids'].some((key) => (payload[key] as number[]).length)) {
    found.user_ids = ['Choose at least one person or group.'];
  }
  return found;
});

export default function AssignDocument(_props: ScreenProps) {
  const noDocuments = useEmptyChoices('document-repository');
  const noEmployeeTypes = useEmptyChoices('employee-type');
  const noClients = useEmptyChoices('client');
  const form = useForm<AssignValues>({ defaultValues: emptyAssignment(), resolver: assignResolver });
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting: isSaving } = form.formState;
  const guard = useDirtyGuard(isDirty);
  const [result, setResult] = useState<string | null>(null);
  const set = <K extends keyof AssignValues>(key: K) => (value: AssignValues[K]) => { form.setValue(key, value as never, { shouldDirty: true }); form.clearErrors(key); };

  const onSubmit = form.handleSubmit((checked) => {
    setResult(null);
    return submitForm(form, () => api.post<{ data: AssignDocumentResult; message: string }>('/document-assign', assignPayload(checked)), {
      onSaved: (answer) => {
        notify.success(answer.message);
        setResult(answer.message);
        // The due date stays for the next documents; the rest is cleared.
        form.reset({ ...emptyAssignment(), due_date: checked.due_date });
      },
    });
  });

  return (
    <>
      <PageHeader title="Assign Document" description="Ask people to read and acknowledge a document, or to return a signed or completed copy."
        actions={(
          <Link href={routePath('document-assign-history.index')} className={cx('inline-flex h-10 items-center rounded-lg px-3 text-sm font-medium text-indigo-600 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800', focusRing)}>
            Assignment history
          </Link>
        )} />
      <Card className="max-w-3xl">
        <form onSubmit={onSubmit} noValidate className="space-y-6 p-5">
          {result && <FormAlert tone="success" message={result} />}
          <FormAlert message={formMessage(form)} />
          <MultiSearchableSelect label="Documents" name="document_ids" value={values.document_ids} onChange={set('document_ids')} required
            load={(search) => loadOptions('document-repository', search)} errors={errors.document_ids} emptyChoices={noDocuments}
            hint="Active documents of the repository." />
          <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold text-slate-900 dark:text-white">People</legend>
            <p className="text-sm text-slate-500 dark:text-slate-400">Pick people one by one, whole groups, or both. Everyone active in them is assigned once.</p>
            <MultiSearchableSelect label="People" name="user_ids" value={values.user_ids} onChange={set('user_ids')}
              load={(search) => loadOptions('user', search)} errors={errors.user_ids} />
            <div className="grid gap-4 sm:grid-cols-3">
              <MultiSearchableSelect label="All of an employee type" name="employee_type_ids" value={values.employee_type_ids} onChange={set('employee_type_ids')}
                load={(search) => loadOptions('employee-type', search)} errors={errors.employee_type_ids} emptyChoices={noEmployeeTypes} />
              <MultiSearchableSelect label="A manager's team" name="manager_ids" value={values.manager_ids} onChange={set('manager_ids')}
                load={(search) => loadOptions('manager', search)} errors={errors.manager_ids} />
              <MultiSearchableSelect label="A client's placements" name="client_ids" value={values.client_ids} onChange={set('client_ids')}
                load={(search) => loadOptions('client', search)} errors={errors.client_ids} emptyChoices={noClients} hint="Engineers with time sheets for the client." />
            </div>
          </fieldset>
          <DateField name="due_date" label="Due date" value={values.due_date} onChange={set('due_date')} errors={errors.due_date} required />
          <TextAreaField name="message" label="Message" value={values.message} onChange={(event) => set('message')(event.target.value)}
            errors={errors.message} hint="Sent with the notification and the mail." rows={3} />
          <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
            <Button type="submit" isLoading={isSaving}>Assign</Button>
          </div>
          {guard.prompt}
        </form>
      </Card>
    </>
  );
}
