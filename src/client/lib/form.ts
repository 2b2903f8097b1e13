// The one form engine (decision 013-one-form-engine): react-hook-form holds the values, one zod resolver
// checks them with the shared schemas, `submitForm` sends them and `applyServerErrors` puts a 422 on the
// fields it names (or above the form when it names none on screen). Every form, generic or custom, uses these.
import { useCallback } from 'react';
import { useForm as useHookForm, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { isApiError, type FieldErrors } from './api';

type Schema = z.ZodType<FieldValues, FieldValues>;

/**
 * The resolver of every form: @hookform/resolvers' zod resolver (it supports zod 4). `schema` may be a loader:
 * a screen that must stay light (login) fetches zod at the first submit, not with the page.
 */
export function formResolver<V extends FieldValues>(schema: Schema | (() => Promise<Schema>)): Resolver<V> {
  if (typeof schema !== 'function') return zodResolver(schema) as unknown as Resolver<V>;
  return async (values, context, options) => (zodResolver(await schema()) as unknown as Resolver<V>)(values, context, options);
}

/**
 * A server error key as react-hook-form names the field. JSON bodies report `lines.2.hours`; multipart ones may
 * report the part's name, `lines[2][hours]` or `receipts[]`; both become `lines.2.hours` / `receipts`.
 */
export function errorPath(key: string): string {
  return key.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '.$1').replace(/^\.+|\.+$/g, '');
}

/** Every key of a 422's `errors` as a dotted path, messages merged when two spellings name one field. */
export function normaliseServerErrors(errors: FieldErrors): FieldErrors {
  const found: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) (found[errorPath(key)] ??= []).push(...messages);
  return found;
}

/** The message react-hook-form keeps for the form as a whole (an error that names no field on screen). */
export const FORM_ERROR = 'root.server' as const;

export interface ServerErrorOptions {
  /** Whether the form shows this (dotted) path; by default, a path whose first segment is one of the form's values. */
  isField?: (path: string) => boolean;
  /** The 422's own message, shown above the form when no key names a field on screen. */
  message?: string;
}

/**
 * The one 422 mapping: each error lands on its field (`lines.2.hours` on line 3's hours), the first one on screen
 * takes focus, and what names no field on screen becomes the form's message. Returns that message (or null).
 */
export function applyServerErrors<V extends FieldValues>(form: UseFormReturn<V>, errors: FieldErrors, options: ServerErrorOptions = {}): string | null {
  const defaults = (form.formState.defaultValues ?? {}) as Record<string, unknown>;
  const isField = options.isField ?? ((path: string) => path.split('.')[0] in defaults);
  let formMessage: string | null = null;
  let first: string | null = null;
  for (const [path, messages] of Object.entries(normaliseServerErrors(errors))) {
    const message = messages.join(' ');
    if (isField(path)) {
      form.setError(path as Path<V>, { type: 'server', message });
      first ??= path;
    } else {
      formMessage ??= messages[0] ?? null;
    }
  }
  if (formMessage === null && !first && options.message && Object.keys(errors).length) formMessage = options.message;
  if (formMessage) form.setError(FORM_ERROR as Path<V>, { type: 'server', message: formMessage });
  if (first) focusField(first);
  return formMessage;
}

/**
 * Focuses a field by its dotted path. react-hook-form focuses the inputs it registered; controlled widgets
 * (selects, dates, lists) carry `data-field="<path>"` or `name`, and a list item falls back to its list.
 */
export function focusField(path: string, root: ParentNode = document) {
  requestAnimationFrame(() => {
    // The page may be gone by the next frame (a closed dialog's test environment torn down).
    if (typeof CSS === 'undefined') return;
    const candidates = [path, path.split('.').slice(0, 2).join('.'), path.split('.')[0]];
    for (const name of candidates) {
      const target = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(name)}"], [name="${CSS.escape(name)}"]:not([type="hidden"])`);
      if (target) { target.focus(); return; }
    }
  });
}

/** The messages react-hook-form holds for a path (and its nested paths, e.g. one file of many), as a list. */
export function messagesAt(errors: object, path: string): string[] | undefined {
  let node: unknown = errors;
  for (const segment of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const { message, ref: _ref, type: _type, types: _types, ...rest } = value as { message?: unknown; ref?: unknown; type?: unknown; types?: unknown };
    if (typeof message === 'string' && message) found.push(message);
    for (const child of Object.values(rest)) walk(child);
  };
  walk(node);
  return found.length ? [...new Set(found)] : undefined;
}

/** The form-level message: a 422 naming no field on screen, or a check of the whole form. */
export const formMessage = <V extends FieldValues>(form: UseFormReturn<V>) =>
  (form.formState.errors.root?.server?.message as string | undefined) ?? null;

export interface SubmitOptions<R> extends ServerErrorOptions {
  onSaved?: (answer: R) => void;
  /** Any other failure (a public form's expired link, no network); by default the API client has told the user. */
  onFailure?: (error: unknown) => void;
}

/**
 * The one submit: sends, hands the answer on, and turns a 422 into field errors. Every form's submit goes
 * through here (engineer D's mutation helper wires in at this one place). Returns the answer, or undefined
 * when the server refused it (the errors are on the form by then).
 */
export async function submitForm<V extends FieldValues, R>(form: UseFormReturn<V>, send: () => Promise<R>, options: SubmitOptions<R> = {}): Promise<R | undefined> {
  form.clearErrors('root' as Path<V>);
  try {
    const answer = await send();
    options.onSaved?.(answer);
    return answer;
  } catch (error) {
    if (isApiError(error) && error.status === 422) applyServerErrors(form, error.errors, { ...options, message: options.message ?? error.message });
    else if (options.onFailure) options.onFailure(error);
    else if (!isApiError(error)) console.error(error); // An ApiError has told the user already (toast, redirect).
    return undefined;
  }
}

interface UseFormOptions<V extends Record<string, string>, Out> {
  initial: V;
  /** The schema, or a loader of it: a screen that must stay light (login) imports zod on first use. */
  schema?: z.ZodType<Out, unknown> | (() => Promise<z.ZodType<Out, unknown>>);
  onSubmit: (values: Out) => Promise<unknown>;
}

/**
 * A form of plain text fields (auth, settings, profile) on the same engine: `field(name)` spreads onto a
 * TextField, `formError` is the message above the form.
 */
export function useForm<V extends Record<string, string>, Out = V>({ initial, schema, onSubmit }: UseFormOptions<V, Out>) {
  const form = useHookForm<V>({
    defaultValues: initial as never,
    resolver: schema ? formResolver<V>(schema as unknown as Schema) : undefined,
    shouldFocusError: true,
  });
  const values = form.watch() as V;
  const { errors, isSubmitting } = form.formState;

  // Controlled as well as registered: the value shows what the form holds, the ref lets a failed check focus it.
  const field = (name: keyof V & string) => ({ ...form.register(name as Path<V>), value: values[name] ?? '', errors: messagesAt(errors, name) });
  const setValue = useCallback((name: keyof V & string, value: string) => {
    form.setValue(name as Path<V>, value as never, { shouldDirty: true });
    form.clearErrors(name as Path<V>);
  }, [form]);
  const handleSubmit = form.handleSubmit((parsed) => submitForm(form, () => onSubmit(parsed as unknown as Out)));
  /** Loaded values become the form's clean state. */
  const reset = (next: V = initial) => form.reset(next as never);

  return {
    form, values, setValue, field, handleSubmit, reset, setValues: reset, isSubmitting,
    errors: Object.fromEntries(Object.keys(initial).map((key) => [key, messagesAt(errors, key)]).filter(([, m]) => m)) as FieldErrors,
    formError: formMessage(form),
  };
}
