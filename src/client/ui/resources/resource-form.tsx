// The create / edit form generated from a definition's fields: client checks with the definition's
// own zod schema (after formToPayload, as the server sees it), the server's 422 errors under their
// fields, foreign keys as searchable selects honouring `dependsOn`, dates as YYYY-MM-DD. File fields
// (not in the schema) make the save multipart with a progress bar when files are added or removed.
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { formToPayload, type FieldDefinition, type ResourceDefinition } from '../../../shared/resources/define';
import { isApiError, type FieldErrors } from '../../lib/api';
import { Button } from '../../ui/button';
import { MultiSearchableSelect, SearchableSelect, type ChoiceOption } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { DateField } from '../../ui/date-input';
import { FormAlert, TextField } from '../../ui/field';
import { CheckboxGroupField, ListField, SelectField } from '../../ui/form-fields';
import { SwitchField } from '../../ui/switch-field';
import { TextAreaField } from '../../ui/textarea-field';
import { RichTextEditor } from '../../ui/rich-text-editor';
import { FileField, selectionProblems } from './file-field';
import { loadOptions, saveForm, type FileSelection } from './resource-api';
import { emptyChoicesFor } from './empty-choices';
import { useSnapshot } from 'valtio';
import { auth } from '../../stores/auth';
import { firm } from '../../stores/firm';
import { attachmentsOf, formFieldKeys, relatedOptions } from './resource-values';
import type { Row } from './use-resource-query';

export type FormValue = string | string[];
export type FormValues = Record<string, FormValue>;
export type FormChoices = Record<string, ChoiceOption | ChoiceOption[] | null>;

export interface ResourceFormProps {
  definition: ResourceDefinition;
  /** The record being edited (already loaded), or null to create. */
  row: Row | null;
  /** The parent record's id from the route (a question's category). */
  parentId?: string | null;
  onSaved: (row: Row) => void;
  onCancel: () => void;
  /** Inside a dialog: the footer sticks to the dialog's bottom. */
  isDialog?: boolean;
  /**
   * Fields fixed by where the form opens (a related list on a detail page: a client's positions take
   * the client): not shown, and sent with these values.
   */
  presets?: Record<string, string>;
  /**
   * A new record's starting values, still editable (a won deal opens a request with its title): form
   * strings by field key; a reference's label may come as `{key}_label`.
   */
  initialValues?: Record<string, string>;
}

/** The {min, max} of an array schema (a question's 2 to 6 options). */
export function arrayBounds(schema: z.ZodType | undefined): { min: number; max: number } {
  const bounds = { min: 0, max: 50 };
  const checks = (schema as unknown as { _zod?: { def?: { checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[] } } })?._zod?.def?.checks ?? [];
  for (const check of checks) {
    const def = check._zod.def;
    if (def.check === 'min_length' && def.minimum !== undefined) bounds.min = def.minimum;
    if (def.check === 'max_length' && def.maximum !== undefined) bounds.max = def.maximum;
  }
  return bounds;
}

/** Required when the schema refuses a missing value. */
export function isRequired(definition: ResourceDefinition, key: string): boolean {
  const schema = definition.schema.shape[key] as z.ZodType | undefined;
  return !!schema && !schema.safeParse(undefined).success && !schema.safeParse(null).success;
}

/** Form strings (and lists) from a record, or the empty form. */
export function initialFormState(definition: ResourceDefinition, row: Row | null, initialValues?: Record<string, string>): { values: FormValues; choices: FormChoices } {
  const values: FormValues = {};
  const choices: FormChoices = {};
  for (const key of formFieldKeys(definition)) {
    const field = definition.fields[key];
    const value = row?.[key];
    if (field.input === 'file') continue; // initialFiles holds them
    const initial = row ? undefined : initialValues?.[key];
    if (typeof initial === 'string' && initial !== '' && !['multiselect', 'list', 'boolean'].includes(field.input)) {
      values[key] = initial;
      if (field.input === 'reference') choices[key] = { id: Number(initial), label: initialValues?.[`${key}_label`] ?? `#${initial}` };
      continue;
    }
    if (field.input === 'reference') {
      const [related] = relatedOptions(field, row);
      values[key] = value === null || value === undefined ? '' : String(value);
      choices[key] = related ?? (values[key] ? { id: Number(values[key]), label: `#${values[key]}` } : null);
    } else if (field.input === 'multiselect' && field.reference) {
      const related = relatedOptions(field, row);
      const ids = related.length ? related.map((o) => String(o.id)) : Array.isArray(value) ? value.map(String) : [];
      values[key] = ids;
      choices[key] = related.length ? related : ids.map((id) => ({ id: Number(id), label: `#${id}` }));
    } else if (field.input === 'multiselect') {
      values[key] = Array.isArray(value) ? value.map(String) : [];
    } else if (field.input === 'list') {
      const list = Array.isArray(value) ? value.map(String) : [];
      const { min } = arrayBounds(definition.schema.shape[key] as z.ZodType);
      values[key] = list.length ? list : Array.from({ length: Math.max(min, 1) }, () => '');
    } else if (field.input === 'boolean') {
      values[key] = value === true ? 'true' : 'false';
    } else if (field.input === 'date') {
      values[key] = typeof value === 'string' ? value.slice(0, 10) : '';
    } else if (value !== null && value !== undefined) {
      values[key] = String(value);
    } else if (!row && field.initialFrom === 'firm-currency') {
      // Issue 22: a new record's currency is the firm's default currency, which the person may change.
      values[key] = firm.default_currency;
    } else {
      // A status-like select (badge) starts on its first choice: active, open.
      values[key] = !row && field.input === 'select' && field.badge && field.options?.length ? String(field.options[0].value) : '';
    }
  }
  return { values, choices };
}

/** Choices of a select fed by a list field of the same form (the correct answer among the options). */
export function choicesFrom(values: FormValues, key: string): { value: string; label: string }[] {
  const list = Array.isArray(values[key]) ? (values[key] as string[]) : [];
  return [...new Set(list.map((v) => v.trim()).filter(Boolean))].map((v) => ({ value: v, label: v }));
}

/** The typed payload the schema and the server see. */
export function buildPayload(definition: ResourceDefinition, values: FormValues, parent: string | number | null | undefined): Record<string, unknown> {
  const cleaned: Record<string, unknown> = { ...values };
  for (const [key, field] of Object.entries(definition.fields)) {
    if (field.optionsFrom && !choicesFrom(values, field.optionsFrom).some((o) => o.value === String(values[key] ?? '').trim())) cleaned[key] = '';
  }
  const payload = formToPayload(definition, cleaned);
  if (definition.parent && parent !== null && parent !== undefined && parent !== '') payload[definition.parent.field] = Number(parent);
  return payload;
}

/** zod issues -> errors keyed like the server's (options.1 for the second option). */
export function schemaErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.map(String).join('.') || '_form'] ??= []).push(issue.message);
  return errors;
}

/** Dependent fields of `key`: city_id depends on country_id. */
const dependentsOf = (definition: ResourceDefinition, key: string) =>
  Object.entries(definition.fields).filter(([, field]) => Object.values(field.reference?.dependsOn ?? {}).includes(key)).map(([dependent]) => dependent);

/** File fields of the form: the record's attachments start as kept, nothing added. */
export function initialFiles(definition: ResourceDefinition, row: Row | null): Record<string, FileSelection> {
  return Object.fromEntries(formFieldKeys(definition).filter((key) => definition.fields[key].input === 'file')
    .map((key) => [key, { kept: attachmentsOf(row, key), added: [] }]));
}

export function useResourceFormState(definition: ResourceDefinition, row: Row | null, initialValues?: Record<string, string>) {
  const [state] = useState(() => initialFormState(definition, row, initialValues));
  const [values, setValues] = useState<FormValues>(state.values);
  const [choices, setChoices] = useState<FormChoices>(state.choices);
  const [files, setFileSelections] = useState<Record<string, FileSelection>>(() => initialFiles(definition, row));
  const [errors, setErrors] = useState<FieldErrors>({});

  const clearErrors = (key: string) => setErrors((current) => Object.fromEntries(Object.entries(current).filter(([k]) => k !== key && !k.startsWith(`${key}.`))));

  const setValue = (key: string, value: FormValue) => {
    setValues((current) => {
      const next = { ...current, [key]: value };
      // A changed country empties the city chosen under the previous one.
      for (const dependent of dependentsOf(definition, key)) if (current[key] !== value) next[dependent] = Array.isArray(next[dependent]) ? [] : '';
      return next;
    });
    if (dependentsOf(definition, key).length) setChoices((current) => ({ ...current, ...Object.fromEntries(dependentsOf(definition, key).map((d) => [d, null])) }));
    clearErrors(key);
  };
  const setChoice = (key: string, choice: ChoiceOption | ChoiceOption[] | null) => {
    setChoices((current) => ({ ...current, [key]: choice }));
    setValue(key, Array.isArray(choice) ? choice.map((c) => String(c.id)) : choice ? String(choice.id) : '');
  };
  const setFiles = (key: string, selection: FileSelection) => {
    setFileSelections((current) => ({ ...current, [key]: selection }));
    clearErrors(key);
  };
  return { values, choices, files, errors, setErrors, setValue, setChoice, setFiles };
}

export function ResourceForm({ definition, row, parentId, onSaved, onCancel, isDialog, presets, initialValues }: ResourceFormProps) {
  const form = useResourceFormState(definition, row, initialValues);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  /** 0..1 while a multipart save goes up; null otherwise. */
  const [progress, setProgress] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const keys = formFieldKeys(definition).filter((key) => !presets || !(key in presets));
  // Editing keeps the record under its own parent: a category id in the url never moves a question.
  const parent = (definition.parent && row ? (row[definition.parent.field] as number | undefined) : undefined) ?? parentId;

  const show = (found: FieldErrors, message?: string) => {
    form.setErrors(found);
    const unshown = Object.keys(found).filter((key) => !keys.includes(key.split('.')[0]));
    setFormError(unshown.length ? found[unshown[0]]?.[0] ?? message ?? null : null);
    const first = Object.keys(found).find((key) => keys.includes(key.split('.')[0]));
    if (first) {
      requestAnimationFrame(() => {
        const root = formRef.current;
        (root?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first)}"]`) ?? root?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.split('.')[0])}"]`))?.focus();
      });
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const payload = { ...buildPayload(definition, form.values, parent), ...(presets ? formToPayload(definition, presets) : {}) };
    const parsed = definition.schema.safeParse(payload);
    const found: FieldErrors = parsed.success ? {} : schemaErrors(parsed.error);
    for (const [key, selection] of Object.entries(form.files)) {
      const problems = definition.fields[key].file ? selectionProblems(definition.fields[key].file, selection) : [];
      if (problems.length) found[key] = problems;
    }
    if (Object.keys(found).length) { show(found); return; }
    form.setErrors({});
    setFormError(null);
    setSubmitting(true);
    try {
      const answer = await saveForm(definition, payload, form.files, row, setProgress);
      onSaved(answer.data);
    } catch (error) {
      if (isApiError(error) && error.status === 422) show(error.errors, error.message);
      else if (!isApiError(error)) console.error(error);
    } finally {
      setSubmitting(false);
      setProgress(null);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={`${row ? 'Edit' : 'Create'} ${definition.label.toLowerCase()}`} className={cx(isDialog && 'flex min-h-full flex-col')}>
      <div className="space-y-5 px-5 py-5">
        <FormAlert message={formError} />
        <div className="grid gap-5 sm:grid-cols-2">
          {keys.map((key) => (
            <div key={key} className={cx(isWide(definition.fields[key]) && 'sm:col-span-2')}>
              <ResourceField definition={definition} fieldKey={key} form={form} />
            </div>
          ))}
        </div>
        {progress !== null && <UploadProgress fraction={progress} />}
      </div>
      <FormFooter isDialog={isDialog}>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>{row ? 'Save changes' : `Create ${definition.label.toLowerCase()}`}</Button>
      </FormFooter>
    </form>
  );
}

export function FormFooter({ children, isDialog }: { children: ReactNode; isDialog?: boolean }) {
  return (
    <div className={cx('flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-4 sm:flex-row sm:justify-end dark:border-slate-800',
      isDialog && 'sticky bottom-0 mt-auto bg-white dark:bg-slate-900')}>
      {children}
    </div>
  );
}

/** The bar of a multipart save (files going up). */
export function UploadProgress({ fraction }: { fraction: number }) {
  const percent = Math.round(fraction * 100);
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-slate-600 dark:text-slate-300"><span>{percent < 100 ? 'Uploading…' : 'Saving…'}</span><span className="tabular-nums">{percent}%</span></div>
      <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
        <div className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

const isWide = (field: FieldDefinition) => ['textarea', 'richtext', 'list', 'multiselect', 'file'].includes(field.input);

type FormState = ReturnType<typeof useResourceFormState>;

/** One field of the generic form, by its `input`. */
export function ResourceField({ definition, fieldKey: key, form }: { definition: ResourceDefinition; fieldKey: string; form: FormState }) {
  const field = definition.fields[key];
  const required = isRequired(definition, key);
  const errors = form.errors[key];
  const value = form.values[key] ?? '';
  const text = typeof value === 'string' ? value : '';
  const common = { name: key, label: field.label, errors, required, hint: field.help };
  // The viewer's permissions, for whether an empty picker links to where its options are added.
  const held = useSnapshot(auth.app).permissions.permissions;

  switch (field.input) {
    case 'file': {
      // The server may name one file of many (receipts.1): those show under the field too.
      const fileErrors = Object.entries(form.errors).filter(([k]) => k === key || k.startsWith(`${key}.`)).flatMap(([, messages]) => messages);
      return (
        <FileField name={key} field={field} value={form.files[key] ?? { kept: [], added: [] }} onChange={(next) => form.setFiles(key, next)}
          errors={fileErrors.length ? fileErrors : undefined} />
      );
    }
    case 'reference': {
      const reference = field.reference!;
      const params = Object.fromEntries(Object.entries(reference.dependsOn ?? {})
        .map(([param, other]) => [param, String(form.values[other] ?? '')]).filter(([, v]) => v));
      return (
        <SearchableSelect {...common} value={(form.choices[key] as ChoiceOption | null) ?? null}
          onChange={(choice) => form.setChoice(key, choice)} reloadKey={JSON.stringify(params)}
          load={(search) => loadOptions(reference.resource, search, params)} emptyChoices={emptyChoicesFor(reference.resource, held)}
          placeholder={field.placeholder ?? `Search ${field.label.toLowerCase()}…`} />
      );
    }
    case 'multiselect':
      if (field.reference) {
        const reference = field.reference;
        return (
          <MultiSearchableSelect {...common} value={(form.choices[key] as ChoiceOption[] | null) ?? []}
            onChange={(choice) => form.setChoice(key, choice)} load={(search) => loadOptions(reference.resource, search)}
            emptyChoices={emptyChoicesFor(reference.resource, held)} />
        );
      }
      return <CheckboxGroupField {...common} options={field.options ?? []} value={Array.isArray(value) ? value : []} onChange={(next) => form.setValue(key, next)} />;
    case 'list': {
      const { min, max } = arrayBounds(definition.schema.shape[key] as z.ZodType);
      const itemErrors: Record<number, string[]> = {};
      for (const [errorKey, messages] of Object.entries(form.errors)) {
        const match = new RegExp(`^${key}\\.(\\d+)$`).exec(errorKey);
        if (match) itemErrors[Number(match[1])] = messages;
      }
      return (
        <ListField {...common} value={Array.isArray(value) ? value : []} onChange={(next) => form.setValue(key, next)}
          min={min} max={max} itemErrors={itemErrors} itemLabel={singularLabel(field.label)} />
      );
    }
    case 'select': {
      const options = field.optionsFrom ? choicesFrom(form.values, field.optionsFrom) : field.options ?? [];
      const current = field.optionsFrom && !options.some((o) => String(o.value) === text.trim()) ? '' : text;
      return (
        <SelectField {...common} options={options} value={current} onChange={(event) => form.setValue(key, event.target.value)}
          emptyLabel={field.optionsFrom && !options.length ? `Fill in the ${definition.fields[field.optionsFrom]?.label.toLowerCase() ?? 'choices'} first` : 'Select…'} />
      );
    }
    case 'richtext':
      return <RichTextEditor {...common} value={text} onChange={(html) => form.setValue(key, html)} />;
    case 'textarea':
      return <TextAreaField {...common} data-field={key} value={text} placeholder={field.placeholder} onChange={(event) => form.setValue(key, event.target.value)} />;
    case 'boolean':
      return (
        <div data-field={key} tabIndex={-1}>
          <SwitchField name={key} label={field.label} description={field.help} checked={text === 'true'} onChange={(checked) => form.setValue(key, String(checked))} />
          {errors?.map((message) => <p key={message} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{message}</p>)}
        </div>
      );
    case 'date':
      return <DateField {...common} value={text} onChange={(next) => form.setValue(key, next)} />;
    default:
      return (
        <TextField {...common} data-field={key} value={text} placeholder={field.placeholder}
          type={field.input === 'email' ? 'email' : field.input === 'number' ? 'number' : 'text'}
          inputMode={field.input === 'number' ? 'numeric' : undefined}
          autoComplete={field.input === 'email' ? 'off' : undefined}
          onChange={(event) => form.setValue(key, event.target.value)} />
      );
  }
}

const singularLabel = (label: string) => label.replace(/ies$/, 'y').replace(/s$/, '');
