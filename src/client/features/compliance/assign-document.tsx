// Assign Document (issue 10, spec /document-assign): documents of the library to people picked one by
// one or as groups (an employee type, a manager's team, a client's placements), with a due date and a
// message. The server assigns them all in one go and tells each person live and by mail.
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { assignDocumentSchema, type AssignDocumentResult } from '../../../shared/resources/document-assignment';
import { routePath } from '../../../shared/routes';
import { addDays, today } from '../../../shared/dates';
import { api, fieldErrorsOf, type FieldErrors } from '../../lib/api';
import { focusField } from '../../lib/form';
import { schemaErrors } from '../../lib/form-errors';
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

export default function AssignDocument(_props: ScreenProps) {
  const noDocuments = useEmptyChoices('document-repository');
  const noEmployeeTypes = useEmptyChoices('employee-type');
  const noClients = useEmptyChoices('client');
  const [documents, setDocuments] = useState<ChoiceOption[]>([]);
  const [people, setPeople] = useState<ChoiceOption[]>([]);
  const [employeeTypes, setEmployeeTypes] = useState<ChoiceOption[]>([]);
  const [managers, setManagers] = useState<ChoiceOption[]>([]);
  const [clients, setClients] = useState<ChoiceOption[]>([]);
  const [dueDate, setDueDate] = useState(dayAfter(14));
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSaving, setSaving] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    if (Object.keys(found)[0]) focusField(Object.keys(found)[0], formRef.current ?? document);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const payload = {
      document_ids: ids(documents), user_ids: ids(people), employee_type_ids: ids(employeeTypes),
      manager_ids: ids(managers), client_ids: ids(clients), due_date: dueDate, message: message.trim() || null,
    };
    const parsed = assignDocumentSchema.safeParse(payload);
    const found: FieldErrors = parsed.success ? {} : schemaErrors(parsed.error);
    if (dueDate && dueDate < today()) found.due_date = ['The due date must be today or later.'];
    if (![payload.user_ids, payload.employee_type_ids, payload.manager_ids, payload.client_ids].some((list) => list.length)) {
      found.user_ids = ['Choose at least one person or group.'];
    }
    showErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const answer = await api.post<{ data: AssignDocumentResult; message: string }>('/document-assign', payload);
      notify.success(answer.message);
      setResult(answer.message);
      setDocuments([]); setPeople([]); setEmployeeTypes([]); setManagers([]); setClients([]); setMessage('');
    } catch (failure) {
      showErrors(fieldErrorsOf(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader title="Assign Document" description="Ask people to read and acknowledge a document, or to return a signed or completed copy."
        actions={(
          <Link href={routePath('document-assign-history.index')} className={cx('inline-flex h-10 items-center rounded-lg px-3 text-sm font-medium text-indigo-600 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800', focusRing)}>
            Assignment history
          </Link>
        )} />
      <Card className="max-w-3xl">
        <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-6 p-5">
          {result && <FormAlert tone="success" message={result} />}
          <MultiSearchableSelect label="Documents" name="document_ids" value={documents} onChange={setDocuments} required
            load={(search) => loadOptions('document-repository', search)} errors={errors.document_ids} emptyChoices={noDocuments}
            hint="Active documents of the repository." />
          <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold text-slate-900 dark:text-white">People</legend>
            <p className="text-sm text-slate-500 dark:text-slate-400">Pick people one by one, whole groups, or both. Everyone active in them is assigned once.</p>
            <MultiSearchableSelect label="People" name="user_ids" value={people} onChange={setPeople}
              load={(search) => loadOptions('user', search)} errors={errors.user_ids} />
            <div className="grid gap-4 sm:grid-cols-3">
              <MultiSearchableSelect label="All of an employee type" name="employee_type_ids" value={employeeTypes} onChange={setEmployeeTypes}
                load={(search) => loadOptions('employee-type', search)} errors={errors.employee_type_ids} emptyChoices={noEmployeeTypes} />
              <MultiSearchableSelect label="A manager's team" name="manager_ids" value={managers} onChange={setManagers}
                load={(search) => loadOptions('manager', search)} errors={errors.manager_ids} />
              <MultiSearchableSelect label="A client's placements" name="client_ids" value={clients} onChange={setClients}
                load={(search) => loadOptions('client', search)} errors={errors.client_ids} emptyChoices={noClients} hint="Engineers with time sheets for the client." />
            </div>
          </fieldset>
          <DateField name="due_date" label="Due date" value={dueDate} onChange={setDueDate} errors={errors.due_date} required />
          <TextAreaField name="message" label="Message" value={message} onChange={(event) => setMessage(event.target.value)}
            errors={errors.message} hint="Sent with the notification and the mail." rows={3} />
          <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
            <Button type="submit" isLoading={isSaving}>Assign</Button>
          </div>
        </form>
      </Card>
    </>
  );
}
