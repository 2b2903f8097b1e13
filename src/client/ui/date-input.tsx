// Dates typed and shown as YYYY-MM-DD (spec §9) whatever the browser's locale, with the native
// calendar one click away. A native <input type="date"> would display the locale's format.
import { useId, useRef, type InputHTMLAttributes } from 'react';
import { focusRing } from './button';
import { cx } from './cx';
import { FieldShell, inputClass, invalidInputClass } from './field';
import { Icon } from './icons';
import { inSentence } from '../lib/format';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

/** 20240105 -> 2024-01-05 as the user types; anything else is left as typed. */
export function normaliseDateText(text: string): string {
  const digits = text.trim();
  return /^\d{8}$/.test(digits) ? `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}` : digits;
}

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  /** The accessible name of the calendar button. */
  pickerLabel?: string;
}

export function DateInput({ value, onChange, invalid, pickerLabel = 'Choose a date', className, disabled, ...input }: DateInputProps) {
  const picker = useRef<HTMLInputElement>(null);
  const openPicker = () => {
    const element = picker.current;
    if (!element) return;
    element.value = isIsoDate(value) ? value : '';
    if (typeof element.showPicker === 'function') {
      try { element.showPicker(); return; } catch { /* not allowed here: fall back to focus */ }
    }
    element.focus();
  };
  return (
    <div className="relative">
      <input type="text" inputMode="numeric" autoComplete="off" placeholder="YYYY-MM-DD" maxLength={10}
        value={value} disabled={disabled} aria-invalid={invalid || undefined}
        onChange={(event) => onChange(normaliseDateText(event.target.value))}
        className={cx(inputClass, 'pr-10 tabular-nums', invalid && invalidInputClass, className)}
        {...input} />
      <button type="button" onClick={openPicker} disabled={disabled} aria-label={pickerLabel}
        className={cx('absolute inset-y-0 right-1 my-auto h-fit rounded p-1.5 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200', focusRing)}>
        <Icon name="calendar" className="size-4" />
      </button>
      {/* The native calendar, driven by the button; invisible and out of the tab order. */}
      <input ref={picker} type="date" tabIndex={-1} aria-hidden="true" className="pointer-events-none absolute right-0 bottom-0 size-px opacity-0"
        onChange={(event) => { if (event.target.value) onChange(event.target.value); }} />
    </div>
  );
}

export interface DateFieldProps { name: string; label: string; value: string; onChange: (value: string) => void; errors?: string[]; required?: boolean; hint?: string }

export function DateField({ name, label, value, onChange, errors, required, hint }: DateFieldProps) {
  const id = `date-${name}-${useId()}`;
  const invalid = !!errors?.length;
  return (
    // No hint of its own: the box's placeholder already shows YYYY-MM-DD, and the same words again below read as a slip.
    <FieldShell id={id} label={label} errors={errors} required={required} hint={hint}>
      <DateInput id={id} name={name} data-field={name} value={value} onChange={onChange} invalid={invalid} required={required}
        aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined} pickerLabel={`Choose ${inSentence(label)}`} />
    </FieldShell>
  );
}

export interface DateRangeValue { from: string; to: string }

/** Two YYYY-MM-DD inputs under one legend (list filters: created from / to, both inclusive). */
export function DateRangeField({ label, value, onChange, error }: { label: string; value: DateRangeValue; onChange: (value: DateRangeValue) => void; error?: string }) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">{label}</legend>
      <div className="grid grid-cols-2 gap-2">
        <DateInput aria-label={`${label} from`} pickerLabel={`Choose ${inSentence(label)} from`} value={value.from}
          invalid={!!value.from && !isIsoDate(value.from)} onChange={(from) => onChange({ ...value, from })} />
        <DateInput aria-label={`${label} to`} pickerLabel={`Choose ${inSentence(label)} to`} value={value.to}
          invalid={!!value.to && !isIsoDate(value.to)} onChange={(to) => onChange({ ...value, to })} />
      </div>
      <div id={`${id}-error`} aria-live="polite">{error && <p className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{error}</p>}</div>
    </fieldset>
  );
}
