// Form state with one zod schema for client checks and the server's 422 `errors` for the rest (spec §5).
import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';
import { isApiError, type FieldErrors } from './api';

/** zod issues -> Laravel-shaped field errors (first path segment is the field). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_form');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Moves focus to the first field (in page order) that has an error; fields carry `data-field="<key>"`. */
export function focusFirstError(form: HTMLElement | null, errors: FieldErrors) {
  const first = [...(form?.querySelectorAll<HTMLElement>('[data-field]') ?? [])].find((field) => errors[field.dataset.field ?? '']?.length);
  first?.focus();
}

type Schema<Out> = z.ZodType<Out, unknown>;

interface UseFormOptions<V extends Record<string, string>, Out> {
  initial: V;
  /** The schema, or a loader of it: a screen that must stay light (login) imports zod on first use. */
  schema?: Schema<Out> | (() => Promise<Schema<Out>>);
  onSubmit: (values: Out) => Promise<void>;
}

export function useForm<V extends Record<string, string>, Out = V>({ initial, schema, onSubmit }: UseFormOptions<V, Out>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement | null>(null);

  const focusFirstError = useCallback((found: FieldErrors) => {
    const first = Object.keys(found)[0];
    if (!first) return;
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)?.focus());
  }, []);

  const showErrors = useCallback((found: FieldErrors, message?: string) => {
    setErrors(found);
    // Errors for fields this form does not show are reported above the form.
    const unshown = Object.keys(found).filter((field) => !(field in initial));
    setFormError(unshown.length ? found[unshown[0]][0] ?? message ?? null : null);
    focusFirstError(found);
  }, [focusFirstError, initial]);

  const setValue = useCallback((name: keyof V & string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!current[name]) return current;
      const { [name]: _removed, ...rest } = current;
      return rest;
    });
  }, []);

  const field = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    errors: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setValue(name, event.target.value),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formRef.current = event.currentTarget;
    let payload = values as unknown as Out;
    if (schema) {
      const parsed = (typeof schema === 'function' ? await schema() : schema).safeParse(values);
      if (!parsed.success) {
        showErrors(zodFieldErrors(parsed.error));
        return;
      }
      payload = parsed.data;
    }
    setErrors({});
    setFormError(null);
    setSubmitting(true);
    try {
      await onSubmit(payload);
    } catch (error) {
      if (isApiError(error) && error.status === 422) showErrors(error.errors, error.message);
      else if (!isApiError(error)) console.error(error);
    } finally {
      setSubmitting(false);
    }
  };

  const reset = (next: V = initial) => { setValues(next); setErrors({}); setFormError(null); };

  return { values, setValue, errors, formError, isSubmitting, field, handleSubmit, reset, setValues };
}
