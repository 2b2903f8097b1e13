// The public candidate form (`/add-candidate-details?token=…`, spec §2 external; issue 12): opened by
// a recruiter's link for one position, filled in without an account, with a CV. The link is the
// permission; an unknown, expired, revoked or used one is said plainly instead of the form.
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearch } from 'wouter';
import { formToPayload } from '../../../shared/resources/define';
import {
  candidate, DATA_CONSENT_FIELD, DATA_CONSENT_REQUIRED, DATA_CONSENT_TEXT, publicCandidateSchema, WORK_STATUSES, type PublicCandidateForm,
} from '../../../shared/resources/candidate';
import { EXPENSE_CURRENCIES } from '../../../shared/resources/expense';
import { isApiError, type FieldErrors } from '../../lib/api';
import { uploadWithProgress } from '../../lib/upload';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { api } from '../../lib/api';
import { PublicNotice, PublicPage, PublicPageLoading } from '../../layout/public-page';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { TextAreaField } from '../../ui/textarea-field';
import { FileField, selectionProblems } from '../../ui/resources/file-field';
import { UploadProgress } from '../../ui/resources/resource-form';
import { bracketedFormData, type FileSelection } from '../../ui/resources/resource-api';

const EMPTY_VALUES = {
  name: '', email: '', phone: '', current_company: '', total_experience: '', relevant_experience: '', skills: '', work_status: '',
  notice_period_days: '', currency: '', current_cost: '', expected_cost: '',
};
type Values = typeof EMPTY_VALUES;
/** The public form's fields as the candidate definition types them (numbers, nulls). */
const publicDefinition = { fields: candidate.fields, schema: publicCandidateSchema };

type Stage = { kind: 'loading' } | { kind: 'problem'; message: string } | { kind: 'form'; form: PublicCandidateForm } | { kind: 'done'; message: string };

export default function CandidateFormPage(_props: ScreenProps) {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });

  useEffect(() => {
    if (!token) { setStage({ kind: 'problem', message: 'This link is invalid or has expired.' }); return; }
    let active = true;
    api.get<{ data: PublicCandidateForm }>(`/public/candidate-form/${encodeURIComponent(token)}`, { silent: true })
      .then((answer) => { if (active) setStage({ kind: 'form', form: answer.data }); })
      .catch((error: unknown) => {
        if (!active) return;
        setStage({ kind: 'problem', message: isApiError(error) && error.status ? error.message : 'The form could not be loaded. Check your connection and reload the page.' });
      });
    return () => { active = false; };
  }, [token]);

  return (
    <PublicPage>
      {stage.kind === 'loading' && <PublicPageLoading label="Loading the form" />}
      {stage.kind === 'problem' && <PublicNotice icon="alert" title={stage.message} text="Ask the recruiter who sent it for a new link." />}
      {stage.kind === 'done' && <PublicNotice icon="check" title={stage.message} text="You can close this page." />}
      {stage.kind === 'form' && (
        <DetailsForm token={token} form={stage.form} onDone={(message) => setStage({ kind: 'done', message })}
          onLinkProblem={(message) => setStage({ kind: 'problem', message })} />
      )}
    </PublicPage>
  );
}

type DetailsValues = Values & { cv: FileSelection; data_consent: boolean };

function DetailsForm({ token, form: link, onDone, onLinkProblem }: {
  token: string; form: PublicCandidateForm; onDone: (message: string) => void; onLinkProblem: (message: string) => void;
}) {
  const toPayload = ({ cv: _cv, data_consent: _consent, ...strings }: DetailsValues) => formToPayload(publicDefinition, strings);
  const form = useForm<DetailsValues>({
    defaultValues: { ...EMPTY_VALUES, cv: { kept: [], added: [] }, data_consent: false },
    resolver: payloadResolver<DetailsValues>(publicCandidateSchema, toPayload, ({ cv, data_consent }): FieldErrors => {
      const problems = selectionProblems(candidate.fields.cv.file!, cv);
      const found: FieldErrors = {};
      if (!data_consent) found[DATA_CONSENT_FIELD] = [DATA_CONSENT_REQUIRED];
      if (problems.length) found.cv = problems;
      else if (!cv.added.length) found.cv = ['The CV field is required.'];
      return found;
    }),
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const values = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const field = (key: keyof Values & string) => ({ ...form.register(key), value: values[key], errors: errors[key], 'data-field': key });

  const onSubmit = form.handleSubmit(async (checked) => {
    setFailure(null);
    // Spec §7: bracketed keys, `candidate[name]` … and `candidate[cv][]`.
    // The consent goes beside the spec's fields; the server keeps the time it was given.
    const body = bracketedFormData(candidate.name, { ...toPayload(checked), [DATA_CONSENT_FIELD]: checked.data_consent ? 1 : 0 }, { cv: checked.cv.added.slice(0, 1) });
    try {
      await submitForm(form, () => uploadWithProgress<{ message: string }>(`/public/candidate-form/${encodeURIComponent(token)}`, body, setProgress, { form: true }), {
        onSaved: (answer) => onDone(answer.message),
        onFailure: (error) => {
          if (!isApiError(error)) setFailure('The form could not be sent. Try again.');
          else if (error.status === 404 || error.status === 410) onLinkProblem(error.message);
          else setFailure(error.status === null ? 'You seem to be offline. Your answers are still here: send again when you are back online.' : error.message);
        },
      });
    } finally {
      setProgress(null);
    }
  });

  const { position } = link;
  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="candidate-form-title">
      <div className="border-b border-slate-200 px-6 py-5 dark:border-slate-800">
        <h1 id="candidate-form-title" className="text-xl font-semibold text-slate-900 dark:text-white">Candidate Details</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {/* Never the client's name: anyone with the link reads this page (issue 24). */}
          Applying for <strong className="font-semibold text-slate-900 dark:text-white">{position.title}</strong>, {position.location}.
        </p>
      </div>
      <div className="space-y-5 px-6 py-6">
        <FormAlert message={failure ?? formMessage(form)} />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Full name" required autoComplete="name" {...field('name')} />
          <TextField label="Email" type="email" required autoComplete="email" {...field('email')} />
          <TextField label="Phone" type="tel" required autoComplete="tel" placeholder="e.g. +91 98765 43210" {...field('phone')} />
          <TextField label="Current company" autoComplete="organization" {...field('current_company')} />
          <TextField label="Total experience (years)" inputMode="decimal" {...field('total_experience')} />
          <TextField label="Relevant experience (years)" inputMode="decimal" {...field('relevant_experience')} />
          <SelectField label="Work status" options={WORK_STATUSES.map((s) => ({ value: s, label: s }))} {...field('work_status')} />
          <TextField label="Notice period (days)" inputMode="numeric" placeholder="e.g. 30" {...field('notice_period_days')} />
          <SelectField label="Currency" options={EXPENSE_CURRENCIES.map((c) => ({ value: c, label: c }))} hint="Of the salaries below." {...field('currency')} />
          {/* The spec's current_cost / expected_cost, asked the way a candidate thinks of them (issue 24). */}
          <TextField label="Current salary" inputMode="decimal" hint="Per year, before tax." {...field('current_cost')} />
          <TextField label="Expected salary" inputMode="decimal" hint="Per year, before tax." {...field('expected_cost')} />
          <div className="sm:col-span-2">
            <TextAreaField label="Skills" rows={3} placeholder="e.g. Java, Spring, AWS" {...field('skills')} />
          </div>
          <div className="sm:col-span-2">
            <FileField name="cv" field={candidate.fields.cv} value={values.cv} required errors={errors.cv}
              onChange={(next) => { form.setValue('cv', next, { shouldDirty: true }); form.clearErrors('cv'); }} />
          </div>
        </div>
        <ConsentField checked={values.data_consent} errors={errors[DATA_CONSENT_FIELD]}
          onChange={(isChecked) => { form.setValue('data_consent', isChecked, { shouldDirty: true }); form.clearErrors(DATA_CONSENT_FIELD as never); }} />
        {progress !== null && <UploadProgress fraction={progress} />}
      </div>
      <div className="flex flex-col gap-3 border-t border-slate-200 px-6 py-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
        <p className="text-xs text-slate-500 dark:text-slate-400">Your details go only to the recruiter of this position.</p>
        <Button type="submit" isLoading={isSubmitting}>Send my details</Button>
      </div>
      {guard.prompt}
    </form>
  );
}

/** Issue 24: the candidate agrees that the firm keeps their details; without it nothing is sent. */
function ConsentField({ checked, errors, onChange }: { checked: boolean; errors?: string[]; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-200">
        <input id={id} type="checkbox" name={DATA_CONSENT_FIELD} data-field={DATA_CONSENT_FIELD} checked={checked} aria-required
          aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600 dark:border-slate-600" />
        <span>{DATA_CONSENT_TEXT}<span className="ml-0.5 text-rose-500" aria-hidden="true">*</span></span>
      </label>
      {errors?.length ? <p id={`${id}-error`} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400" aria-live="polite">{errors[0]}</p> : null}
    </div>
  );
}
