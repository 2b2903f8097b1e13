// The create / edit form generated from a definition's fields, on the one form engine (lib/form): react-hook-form
// state, the definition's own zod schema as the resolver (over formToPayload, as the server sees it), the server's
// 422 errors under their fields through applyServerErrors, foreign keys as searchable selects honouring `dependsOn`,
// dates as YYYY-MM-DD. File fields (not in the schema) make the save multipart with a progress bar when files are
// added or removed. Custom forms compose it through slots (ResourceFormSlots) instead of copying its submit.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useFieldArray, useForm as useHookForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { actionWords, formToPayload, type FieldDefinition, type ResourceDefinition } from '../../../shared/resources/define';
import type { FieldErrors } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { applyServerErrors, FORM_ERROR, focusField, formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
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
import { emptyChoicesFor } from './empty-choices';
import { useSnapshot } from 'valtio';
import { auth } from '../../stores/auth';
import { firm } from '../../stores/firm';
import { loadOptions, queuedItemOf, saveForm, type FileSelection, type SaveAnswer } from './resource-api';
import { attachmentsOf, formFieldKeys, relatedOptions } from './resource-values';
import type { Row } from './use-resource-query';
import { inSentence } from '../../lib/format';

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
    } else if (!row && field.initial !== undefined) {
      values[key] = String(field.initial);
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

/** Dependent fields of `key`: city_id depends on country_id. */
const dependentsOf = (definition: ResourceDefinition, key: string) =>
  Object.entries(definition.fields).filter(([, field]) => Object.values(field.reference?.dependsOn ?? {}).includes(key)).map(([dependent]) => dependent);

/** File fields of the form: the record's attachments start as kept, nothing added. */
export function initialFiles(definition: ResourceDefinition, row: Row | null): Record<string, FileSelection> {
  // A row opened from the outbox (issue 26) brings the files it queued.
  const queued = queuedItemOf(row)?.files ?? {};
  return Object.fromEntries(formFieldKeys(definition).filter((key) => definition.fields[key].input === 'file')
    .map((key) => [key, { kept: attachmentsOf(row, key), added: queued[key] ?? [] }]));
}

/** Where react-hook-form keeps the file selections (beside the values, so a picked file makes the form dirty). */
const FILES = '$files';
/** A list field's item in react-hook-form: an object, as a field array keys each item by an id of its own. */
interface ListItem { text: string }
type HookValues = Record<string, string | string[] | ListItem[]> & { [FILES]: Record<string, FileSelection> };

const isListField = (definition: ResourceDefinition, key: string) => definition.fields[key]?.input === 'list';

/** The form strings as react-hook-form holds them: a list field's texts as field-array items. */
function toHookValues(definition: ResourceDefinition, values: FormValues): Record<string, string | string[] | ListItem[]> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) =>
    [key, isListField(definition, key) && Array.isArray(value) ? value.map((text) => ({ text })) : value]));
}

/** What react-hook-form holds as form strings: a list field's items as their texts. */
function fromHookValues(definition: ResourceDefinition, values: Record<string, unknown>): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([key]) => key !== FILES).map(([key, value]) =>
    [key, isListField(definition, key) && Array.isArray(value) ? (value as ListItem[]).map((item) => item?.text ?? '') : value as FormValue]));
}

/**
 * The state of a resource form on the form engine (react-hook-form): the values as form strings, the labels of
 * chosen references, the file selections and the errors by dotted path. Custom forms use it with ResourceField.
 */
export function useResourceFormState(definition: ResourceDefinition, row: Row | null, initialValues?: Record<string, string>, resolver?: Resolver<HookValues>) {
  const [start] = useState(() => ({ ...initialFormState(definition, row, initialValues), files: initialFiles(definition, row) }));
  const [choices, setChoices] = useState<FormChoices>(start.choices);
  const hook = useHookForm<HookValues>({ defaultValues: { ...toHookValues(definition, start.values), [FILES]: start.files } as HookValues, resolver });
  const watched = hook.watch() as HookValues;
  const files = watched[FILES];
  const values = fromHookValues(definition, watched);
  const errors = flattenErrors(hook.formState.errors);

  const setValue = (key: string, value: FormValue) => {
    const current = hook.getValues(key);
    hook.setValue(key, isListField(definition, key) && Array.isArray(value) ? value.map((text) => ({ text })) : value, { shouldDirty: true });
    // A changed country empties the city chosen under the previous one.
    const dependents = dependentsOf(definition, key);
    if (dependents.length && JSON.stringify(current) !== JSON.stringify(value)) {
      for (const dependent of dependents) hook.setValue(dependent, Array.isArray(hook.getValues(dependent)) ? [] : '', { shouldDirty: true });
      setChoices((all) => ({ ...all, ...Object.fromEntries(dependents.map((d) => [d, null])) }));
    }
    hook.clearErrors(key);
  };
  const setChoice = (key: string, choice: ChoiceOption | ChoiceOption[] | null) => {
    setChoices((current) => ({ ...current, [key]: choice }));
    setValue(key, Array.isArray(choice) ? choice.map((c) => String(c.id)) : choice ? String(choice.id) : '');
  };
  const setFiles = (key: string, selection: FileSelection) => {
    hook.setValue(`${FILES}.${key}`, selection as never, { shouldDirty: true });
    hook.clearErrors(key);
  };
  /** Puts errors (server-shaped, dotted keys) on the form, replacing the ones it had. */
  const setErrors = (found: FieldErrors) => {
    hook.clearErrors();
    for (const [key, messages] of Object.entries(found)) hook.setError(key, { type: 'custom', message: messages.join(' ') });
  };
  return { hook, values, choices, files: files ?? {}, errors, setErrors, setValue, setChoice, setFiles };
}

export type ResourceFormState = ReturnType<typeof useResourceFormState>;

/** The extra parts a custom form gives the generic one (decision 013-one-form-engine "Slots"). */
export interface ResourceFormSlots {
  /** Lays out the fields (the default: every field in a two-column grid); `field(key)` renders one. */
  layout?: (parts: { field: (key: string) => ReactNode; keys: string[]; form: ResourceFormState }) => ReactNode;
  /** Renders one field its own way; undefined falls back to the generic field. */
  renderField?: (key: string, form: ResourceFormState) => ReactNode | undefined;
  /** More inputs after the fields (not in the definition). */
  extraFields?: (form: ResourceFormState) => ReactNode;
  /** A summary above the buttons (totals, balance). */
  summary?: (form: ResourceFormState) => ReactNode;
  /** Changes the payload before the check and the save (who "myself" is, computed totals). */
  beforeSubmit?: (payload: Record<string, unknown>, form: ResourceFormState) => Record<string, unknown>;
  /** Client checks the schema cannot make, by dotted path. */
  validate?: (payload: Record<string, unknown>, form: ResourceFormState) => FieldErrors;
  /** Saves another way than the definition's create / update (a custom endpoint, a JSON part in multipart). */
  send?: (payload: Record<string, unknown>, form: ResourceFormState, onProgress: (fraction: number) => void) => Promise<SaveAnswer>;
  /** The fields shown, in order (default: the definition's form fields less the presets). */
  fieldKeys?: string[];
  submitLabel?: string;
  label?: string;
}

export function ResourceForm(props: ResourceFormProps & ResourceFormSlots) {
  const { definition, row, parentId, onSaved, onCancel, isDialog, presets, initialValues } = props;
  const { layout, renderField, extraFields, summary, beforeSubmit, validate, send, fieldKeys, submitLabel, label } = props;
  /** 0..1 while a multipart save goes up; null otherwise. */
  const [progress, setProgress] = useState<number | null>(null);
  const keys = fieldKeys ?? formFieldKeys(definition).filter((key) => !presets || !(key in presets));
  // Editing keeps the record under its own parent: a category id in the url never moves a question.
  const parent = (definition.parent && row ? (row[definition.parent.field] as number | undefined) : undefined) ?? parentId;
  const isField = (path: string) => keys.includes(path.split('.')[0]);

  // The one resolver, over the payload the server will see (formToPayload of the form strings).
  const stateRef = useRef<ResourceFormState | null>(null);
  const payloadOf = (values: FormValues) => {
    const payload = { ...buildPayload(definition, values, parent), ...(presets ? formToPayload(definition, presets) : {}) };
    return beforeSubmit && stateRef.current ? beforeSubmit(payload, stateRef.current) : payload;
  };
  const resolver = payloadResolver<HookValues>(definition.schema as never, (values) => payloadOf(fromHookValues(definition, values)),
    ({ [FILES]: files }, payload) => {
      const extra: FieldErrors = { ...(validate && stateRef.current ? validate(payload, stateRef.current) : {}) };
      for (const [key, selection] of Object.entries(files ?? {})) {
        const problems = definition.fields[key]?.file ? selectionProblems(definition.fields[key].file, selection) : [];
        if (problems.length) extra[key] = problems;
      }
      return extra;
    });
  const form = useResourceFormState(definition, row, initialValues, resolver);
  stateRef.current = form;
  const { isDirty, isSubmitting, isSubmitSuccessful } = form.hook.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const formRef = useRef<HTMLFormElement>(null);
  // Opened from the outbox after the server refused it (issue 26): its errors on their fields, once.
  const refusal = queuedItemOf(row);
  useEffect(() => {
    if (refusal?.errors && Object.keys(refusal.errors).length) applyServerErrors(form.hook, refusal.errors, { isField, message: refusal.message ?? undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the form opens
  }, []);

  const onSubmit = form.hook.handleSubmit(async (values) => {
    const files = values[FILES];
    const payload = payloadOf(fromHookValues(definition, values));
    try {
      await submitForm(form.hook, () => (send ? send(payload, form, setProgress) : saveForm(definition, payload, files ?? {}, row, setProgress)),
        { isField, onSaved: (answer) => onSaved(answer.data) });
    } finally {
      setProgress(null);
    }
  }, (errors) => {
    // A check on a field this form does not show (a preset, the parent) is said above the form.
    const found = flattenErrors(errors);
    const hidden = Object.entries(found).find(([key]) => !isField(key));
    if (hidden) form.hook.setError(FORM_ERROR, { type: 'custom', message: hidden[1][0] });
    // The first invalid field in the order shown takes focus (its widgets are controlled, so
    // react-hook-form has no input of its own to focus).
    const firstKey = keys.find((key) => Object.keys(found).some((path) => path.split('.')[0] === key));
    const firstPath = firstKey && Object.keys(found).find((path) => path.split('.')[0] === firstKey);
    if (firstPath) focusField(firstPath, formRef.current ?? document);
  });

  const field = (key: string) => renderField?.(key, form) ?? <ResourceField definition={definition} fieldKey={key} form={form} />;
  // A screen's own `label` names the record; else the definition's action words ("Create document").
  const words = label ? { create: `Create ${label}`, edit: `Edit ${label}` } : actionWords(definition);

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={row ? words.edit : words.create} className={cx(isDialog && 'flex min-h-full flex-col')}>
      <div className="space-y-5 px-5 py-5">
        <FormAlert message={formMessage(form.hook)} />
        {layout ? layout({ field, keys, form }) : (
          <div className="grid gap-5 sm:grid-cols-2">
            {keys.map((key) => (
              <div key={key} className={cx(isWide(definition.fields[key]) && 'sm:col-span-2')}>{field(key)}</div>
            ))}
          </div>
        )}
        {extraFields?.(form)}
        {summary?.(form)}
        {progress !== null && <UploadProgress fraction={progress} />}
      </div>
      <FormFooter isDialog={isDialog}>
        <Button variant="secondary" onClick={() => guard.confirm(onCancel)} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>{submitLabel ?? (row ? 'Save changes' : words.create)}</Button>
      </FormFooter>
      {guard.prompt}
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

type FormState = ResourceFormState;

/** A list field (a question's options) as a react-hook-form field array: an item's error moves with it. */
function ListFieldArray({ definition, fieldKey: key, form, common }: { definition: ResourceDefinition; fieldKey: string; form: FormState; common: { name: string; label: string; errors?: string[]; required: boolean; hint?: string } }) {
  const { fields, append, insert, remove } = useFieldArray({ control: form.hook.control, name: key as never });
  const { min, max } = arrayBounds(definition.schema.shape[key] as z.ZodType);
  // By keyboard: Enter in an item adds one below it and Add adds one at the end, each taking focus (the
  // field array focuses what it adds); a removed item hands focus to the one now in its place, or the last.
  const focusAfterRemove = useRef<number | null>(null);
  useEffect(() => {
    const index = focusAfterRemove.current;
    if (index === null) return;
    focusAfterRemove.current = null;
    if (fields.length) form.hook.setFocus(`${key}.${Math.min(index, fields.length - 1)}.text`);
  }, [fields, form.hook, key]);
  const itemErrors: Record<number, string[]> = {};
  for (const [errorKey, messages] of Object.entries(form.errors)) {
    const match = new RegExp(`^${key}\\.(\\d+)(?:\\.text)?$`).exec(errorKey);
    if (match) (itemErrors[Number(match[1])] ??= []).push(...messages);
  }
  return (
    <ListField {...common} ids={fields.map((item) => item.id)} min={min} max={max} itemErrors={itemErrors} itemLabel={singularLabel(definition.fields[key].label)}
      inputProps={(index) => ({
        ...form.hook.register(`${key}.${index}.text`, { onChange: () => form.hook.clearErrors(`${key}.${index}`) }),
        onKeyDown: (event) => {
          if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
          // Not the form's submit: a list is typed item after item.
          event.preventDefault();
          if (fields.length < max) insert(index + 1, { text: '' } as never);
        },
      })}
      onAdd={() => append({ text: '' } as never)}
      onRemove={(index) => { focusAfterRemove.current = index; remove(index); }} />
  );
}

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
          placeholder={field.placeholder ?? `Search ${inSentence(field.label)}…`} />
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
    case 'list':
      return <ListFieldArray definition={definition} fieldKey={key} form={form} common={common} />;
    case 'select': {
      const options = field.optionsFrom ? choicesFrom(form.values, field.optionsFrom) : field.options ?? [];
      const current = field.optionsFrom && !options.some((o) => String(o.value) === text.trim()) ? '' : text;
      return (
        <SelectField {...common} options={options} value={current} onChange={(event) => form.setValue(key, event.target.value)}
          emptyLabel={field.optionsFrom && !options.length ? `Fill in the ${definition.fields[field.optionsFrom] ? inSentence(definition.fields[field.optionsFrom].label) : 'choices'} first` : 'Select…'} />
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
