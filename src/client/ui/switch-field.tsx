// An on/off switch with its label and description (Headless UI Switch: role="switch", aria-checked).
import { Description, Field, Label, Switch } from '@headlessui/react';
import type { ReactNode } from 'react';
import { focusRing } from './button';
import { cx } from './cx';

export interface SwitchFieldProps {
  name: string;
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

export function SwitchField({ name, label, description, checked, onChange, disabled }: SwitchFieldProps) {
  return (
    <Field disabled={disabled} className="flex items-start justify-between gap-4">
      <span className="min-w-0">
        <Label className="block text-sm font-medium text-slate-700 data-disabled:opacity-70 dark:text-slate-200">{label}</Label>
        {description && <Description className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</Description>}
      </span>
      <Switch
        name={name}
        checked={checked}
        onChange={onChange}
        className={cx(
          'group relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full p-0.5 transition-colors duration-200',
          'bg-slate-200 data-checked:bg-indigo-600 dark:bg-slate-700 dark:data-checked:bg-indigo-500',
          'data-disabled:cursor-not-allowed data-disabled:opacity-60',
          focusRing,
        )}
      >
        <span aria-hidden="true"
          className="pointer-events-none inline-block size-5 translate-x-0 rounded-full bg-white shadow-sm ring-0 transition-transform duration-200 group-data-checked:translate-x-5 motion-reduce:transition-none" />
      </Switch>
    </Field>
  );
}
