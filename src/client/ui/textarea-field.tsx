// A labelled multi-line input with the same error and hint handling as TextField, and an optional
// character counter against maxLength.
import { useId, type TextareaHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';
import { FieldShell, inputClass, invalidInputClass } from './field';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'value'> {
  name: string;
  label: string;
  value: string;
  errors?: string[];
  hint?: ReactNode;
  /** Shows "used / maxLength" beside the label. */
  showCount?: boolean;
}

export function TextAreaField({ label, errors, hint, showCount, className, id: givenId, required, rows = 4, ...input }: TextAreaFieldProps) {
  const autoId = useId();
  const id = givenId ?? `field-${input.name}-${autoId}`;
  const invalid = !!errors?.length;
  const max = input.maxLength;
  const count = showCount && max ? (
    <span className={cx('text-xs tabular-nums', input.value.length >= max ? 'text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400')}
      aria-live="polite" id={`${id}-count`}>
      {input.value.length}/{max}
    </span>
  ) : undefined;
  return (
    <FieldShell id={id} label={label} errors={errors} hint={hint} required={required} labelAction={count}>
      <textarea
        id={id}
        rows={rows}
        aria-invalid={invalid || undefined}
        aria-describedby={cx(invalid ? `${id}-error` : hint ? `${id}-hint` : undefined, count ? `${id}-count` : undefined) || undefined}
        aria-required={required || undefined}
        className={cx(inputClass, 'min-h-24 resize-y leading-6', invalid && invalidInputClass, className)}
        {...input}
      />
    </FieldShell>
  );
}
