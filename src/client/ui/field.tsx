// Labelled inputs that show client (zod) and server (422) errors per field, announced politely.
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';
import { GuestIcon } from './guest-icons';

export const inputClass = cx(
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset ring-slate-400',
  // Placeholders carry hints (YYYY-MM-DD): readable contrast, not the usual faint grey; in italics,
  // so a hint never passes for a value typed in (issue 24).
  'placeholder:text-slate-500 placeholder:italic focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none',
  'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500',
  'dark:bg-slate-900 dark:text-white dark:ring-slate-600 dark:placeholder:text-slate-400 dark:focus:ring-indigo-400 dark:disabled:bg-slate-800/60',
);

/**
 * The ring of a field with an error. Important (`!`): the stylesheet orders the colour utilities by name, so a
 * plain rose ring would lose to inputClass's slate one and an invalid field would look like any other.
 */
export const invalidInputClass = 'ring-rose-400! focus:ring-rose-500! dark:ring-rose-500/70! dark:focus:ring-rose-400!';

interface FieldShellProps { id: string; label: string; errors?: string[]; hint?: ReactNode; required?: boolean; children: ReactNode; labelAction?: ReactNode }

export function FieldShell({ id, label, errors, hint, required, children, labelAction }: FieldShellProps) {
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          {label}{required && <span className="ml-0.5 text-rose-500" aria-hidden="true">*</span>}
        </label>
        {labelAction}
      </div>
      {children}
      {hint && !errors?.length && <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      <div id={`${id}-error`} aria-live="polite">
        {errors?.map((message) => (
          <p key={message} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{message}</p>
        ))}
      </div>
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  name: string;
  label: string;
  errors?: string[];
  hint?: ReactNode;
  labelAction?: ReactNode;
}

export function TextField({ label, errors, hint, labelAction, className, id: givenId, required, ...input }: TextFieldProps) {
  const autoId = useId();
  const id = givenId ?? `field-${input.name}-${autoId}`;
  const invalid = !!errors?.length;
  return (
    <FieldShell id={id} label={label} errors={errors} hint={hint} required={required} labelAction={labelAction}>
      <input
        id={id}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined}
        aria-required={required || undefined}
        className={cx(inputClass, invalid && invalidInputClass, className)}
        {...input}
      />
    </FieldShell>
  );
}

/**
 * A password input. No reveal button inside the form on purpose: automation and password managers
 * treat the first form button as the submit button.
 */
export function PasswordField(props: TextFieldProps) {
  return <TextField type="password" {...props} />;
}

/** A form-level error (an error for a field the form does not show, or a failed submit). */
export function FormAlert({ message, tone = 'error' }: { message?: string | null; tone?: 'error' | 'success' }) {
  return (
    // Always in the DOM so screen readers announce it; when empty it takes no room in a spaced form.
    <div aria-live="assertive" className="empty:mb-0">
      {message && (
        <div className={cx('flex items-start gap-2 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset',
          tone === 'error'
            ? 'bg-rose-50 text-rose-700 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30'
            : 'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30')}>
          <GuestIcon name={tone === 'error' ? 'alert' : 'check'} className="mt-0.5 size-4 shrink-0" />
          <span>{message}</span>
        </div>
      )}
    </div>
  );
}
