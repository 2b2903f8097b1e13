// Labelled controls beside TextField / TextAreaField / SwitchField: native select, check list, and a
// list of short texts (a question's options). Errors and hints as FieldShell shows them.
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { Button, focusRing } from './button';
import { cx } from './cx';
import { FieldShell, inputClass, invalidInputClass } from './field';
import { Icon } from './icons';


const describedBy = (id: string, invalid: boolean, hint?: ReactNode) => (invalid ? `${id}-error` : hint ? `${id}-hint` : undefined);

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name'> {
  name: string; label: string; errors?: string[]; hint?: ReactNode;
  options: readonly { value: string | number; label: string }[];
  /** The empty choice's text ('Select…', 'All'). */
  emptyLabel?: string;
  isLabelHidden?: boolean;
}

export function SelectField({ name, label, errors, hint, required, options, emptyLabel = 'Select…', isLabelHidden, className, ...rest }: SelectFieldProps) {
  const id = `field-${name}-${useId()}`;
  const invalid = !!errors?.length;
  const select = (
    <select id={id} name={name} data-field={name} aria-invalid={invalid || undefined} aria-required={required || undefined}
      aria-label={isLabelHidden ? label : undefined} aria-describedby={describedBy(id, invalid, hint)}
      className={cx(inputClass, 'pr-8', invalid && invalidInputClass, className)} {...rest}>
      <option value="">{emptyLabel}</option>
      {options.map((option) => <option key={String(option.value)} value={String(option.value)}>{option.label}</option>)}
    </select>
  );
  if (isLabelHidden) return select;
  return <FieldShell id={id} label={label} errors={errors} hint={hint} required={required}>{select}</FieldShell>;
}

/** Tick boxes for a fixed multiselect. */
export function CheckboxGroupField({ name, label, options, value, onChange, errors, hint }: {
  name: string; label: string; options: readonly { value: string | number; label: string }[]; value: string[]; onChange: (value: string[]) => void; errors?: string[]; hint?: ReactNode;
}) {
  const id = `field-${name}-${useId()}`;
  const toggle = (option: string, isOn: boolean) => onChange(isOn ? [...value, option] : value.filter((v) => v !== option));
  return (
    <fieldset aria-describedby={errors?.length ? `${id}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">{label}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {options.map((option, index) => (
          <label key={String(option.value)} className="inline-flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input type="checkbox" data-field={index === 0 ? name : undefined} checked={value.includes(String(option.value))}
              onChange={(event) => toggle(String(option.value), event.target.checked)}
              className="size-4 rounded border-slate-300 text-indigo-600 accent-indigo-600 dark:border-slate-600" />
            {option.label}
          </label>
        ))}
      </div>
      {hint && !errors?.length && <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      <div id={`${id}-error`} aria-live="polite">{errors?.map((m) => <p key={m} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{m}</p>)}</div>
    </fieldset>
  );
}

/**
 * A variable list of short texts, drawn from a react-hook-form field array (a question's options): `ids` key
 * the items (so an item's text and error move with it when an earlier one is removed), `inputProps(i)` wires
 * item i's input (react-hook-form's `register`). `errors` are the field's own; `itemErrors[i]` sit under item i
 * (the server names them options.1).
 */
export function ListField({ name, label, ids, inputProps, onAdd, onRemove, errors, itemErrors = {}, hint, min = 0, max = 50, itemLabel = 'Item', required }: {
  name: string; label: string; ids: readonly string[]; inputProps: (index: number) => InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  onAdd: () => void; onRemove: (index: number) => void; errors?: string[]; itemErrors?: Record<number, string[]>;
  hint?: ReactNode; min?: number; max?: number; itemLabel?: string; required?: boolean;
}) {
  const id = `field-${name}-${useId()}`;
  return (
    <fieldset aria-describedby={errors?.length ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}{required && <span className="ml-0.5 text-rose-500" aria-hidden="true">*</span>}
      </legend>
      <ol className="space-y-2">
        {ids.map((itemId, index) => {
          const invalid = !!itemErrors[index]?.length;
          return (
            <li key={itemId}>
              <div className="flex items-center gap-2">
                <span className="w-6 shrink-0 text-right text-xs font-medium text-slate-400 tabular-nums" aria-hidden="true">{index + 1}.</span>
                <input type="text" {...inputProps(index)} data-field={index === 0 ? name : `${name}.${index}`} aria-label={`${itemLabel} ${index + 1}`}
                  aria-invalid={invalid || undefined} className={cx(inputClass, invalid && invalidInputClass)} />
                <button type="button" onClick={() => onRemove(index)} disabled={ids.length <= min} aria-label={`Remove ${itemLabel.toLowerCase()} ${index + 1}`}
                  className={cx('shrink-0 rounded-lg p-2 text-slate-400 hover:bg-slate-100 hover:text-rose-600 disabled:cursor-not-allowed disabled:opacity-30 disabled:hover:bg-transparent disabled:hover:text-slate-400 dark:hover:bg-slate-800', focusRing)}>
                  <Icon name="trash" className="size-4" />
                </button>
              </div>
              {itemErrors[index]?.map((m) => <p key={m} className="mt-1 ml-8 text-sm text-rose-600 dark:text-rose-400">{m}</p>)}
            </li>
          );
        })}
      </ol>
      <div className="mt-2 ml-8">
        <Button variant="secondary" size="sm" onClick={onAdd} disabled={ids.length >= max}>
          <Icon name="plus" className="size-4" /> Add {itemLabel.toLowerCase()}
        </Button>
      </div>
      {hint && !errors?.length && <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      <div id={`${id}-error`} aria-live="polite">{errors?.map((m) => <p key={m} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{m}</p>)}</div>
    </fieldset>
  );
}
