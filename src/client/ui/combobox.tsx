// Searchable selects (headlessui Combobox) fed by a loader, e.g. GET /api/{resource}/options?search=.
// One choice (foreign keys, reference filters) or many (roles). Typing narrows the server's answer.
import { useEffect, useRef, useState } from 'react';
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Description, Field, Label } from '@headlessui/react';
import type { ReactNode } from 'react';
import { inputClass, invalidInputClass } from './field';
import { focusRing } from './button';
import { cx } from './cx';
import { useFocusAfterChoice } from './focus-after-choice';
import { Icon } from './icons';
import { Link } from 'wouter';

export interface ChoiceOption { id: number | string; label: string }

export type OptionLoader = (search: string) => Promise<ChoiceOption[]>;

/**
 * What to say when there is nothing at all to choose from (issue 22): who adds the options, and a link
 * to where when the viewer may (ui/resources/empty-choices.ts words it from the option source).
 */
export interface EmptyChoices { message: string; link?: { label: string; href: string } }

const SEARCH_DEBOUNCE_MS = 250;

/** Loads options for the typed text, debounced, once the control has been opened; stale answers are dropped. */
function useOptions(load: OptionLoader, query: string, isWanted: boolean, reloadKey: string) {
  const [options, setOptions] = useState<ChoiceOption[]>([]);
  const [isLoading, setLoading] = useState(false);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    if (!isWanted) return;
    let active = true;
    setLoading(true);
    const timer = window.setTimeout(() => {
      loadRef.current(query.trim())
        .then((found) => { if (active) setOptions(found); })
        .catch(() => { if (active) setOptions([]); })
        .finally(() => { if (active) setLoading(false); });
    }, query ? SEARCH_DEBOUNCE_MS : 0);
    return () => { active = false; window.clearTimeout(timer); };
  }, [query, isWanted, reloadKey]);
  return { options, isLoading };
}

const optionsPanel = cx(
  'z-50 max-h-64 w-(--input-width) min-w-48 overflow-auto rounded-lg bg-white p-1 text-sm shadow-lg ring-1 ring-slate-200 [--anchor-gap:4px] empty:invisible',
  'dark:bg-slate-900 dark:ring-slate-700',
);
const optionClass = cx(
  'flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-slate-700 select-none data-focus:bg-indigo-50 data-focus:text-indigo-900',
  'dark:text-slate-200 dark:data-focus:bg-indigo-500/15 dark:data-focus:text-white',
);

function OptionList({ options, isLoading, query, emptyChoices }: { options: ChoiceOption[]; isLoading: boolean; query: string; emptyChoices?: EmptyChoices }) {
  return (
    <ComboboxOptions anchor="bottom start" className={optionsPanel} modal={false}>
      {isLoading && options.length === 0 && <div className="px-2.5 py-2 text-slate-500 dark:text-slate-400">Searching…</div>}
      {!isLoading && options.length === 0 && (
        <div className="px-2.5 py-2 text-slate-500 dark:text-slate-400">
          {query ? `No results for “${query}”` : emptyChoices?.message ?? 'Nothing to choose from'}
          {!query && emptyChoices?.link && (
            <> <Link href={emptyChoices.link.href} className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">{emptyChoices.link.label}</Link></>
          )}
        </div>
      )}
      {options.map((option) => (
        <ComboboxOption key={option.id} value={option} className={cx(optionClass, 'group')}>
          <Icon name="check" className="size-4 shrink-0 text-indigo-600 invisible group-data-selected:visible dark:text-indigo-400" />
          <span className="truncate">{option.label}</span>
        </ComboboxOption>
      ))}
    </ComboboxOptions>
  );
}

/**
 * Label, hint and errors through Headless UI's Field: the combobox input takes its
 * aria-labelledby / aria-describedby from there (it would override ones passed to it).
 */
function ComboShell({ label, hint, errors, required, children, before, emptyNote }: { label: string; hint?: string; errors?: string[]; required?: boolean; children: ReactNode; before?: ReactNode; emptyNote?: EmptyChoices | null }) {
  return (
    <Field>
      <Label className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}{required && <span className="ml-0.5 text-rose-500" aria-hidden="true">*</span>}
      </Label>
      {before}
      {children}
      {hint && !errors?.length && <Description className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{hint}</Description>}
      {emptyNote && (
        <Description as="p" data-testid="empty-choices" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {emptyNote.message}
          {emptyNote.link && <> <Link href={emptyNote.link.href} className={cx('rounded font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400', focusRing)}>{emptyNote.link.label}</Link></>}
        </Description>
      )}
      <div aria-live="polite">
        {errors?.map((message) => <Description as="p" key={message} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{message}</Description>)}
      </div>
    </Field>
  );
}

export interface SearchableSelectProps {
  label: string;
  /** Marks the input for focus-on-error (data-field). */
  name: string;
  value: ChoiceOption | null;
  onChange: (option: ChoiceOption | null) => void;
  load: OptionLoader;
  errors?: string[];
  hint?: string;
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Changing it reloads the options (a dependency such as the chosen country changed). */
  reloadKey?: string;
  /** Hide the visible label (filters in a toolbar still get an accessible name). */
  isLabelHidden?: boolean;
  /** Said (under the field too, with its link, for keyboard users) when there is nothing to choose from. */
  emptyChoices?: EmptyChoices;
}

/**
 * The list opens on a click, on typing or on ArrowDown, but not when the field merely gets focus: with the
 * list open, Tab would choose its first option, so tabbing through a form would fill in every select.
 */
function useOpenOnClick() {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const openOnClick = (isOpen: boolean) => { if (!isOpen) buttonRef.current?.click(); };
  return { buttonRef, openOnClick };
}

/** The empty note under the field: once the unfiltered options came back empty. */
const emptyNoteOf = (emptyChoices: EmptyChoices | undefined, options: ChoiceOption[], isLoading: boolean, query: string, isWanted: boolean) =>
  emptyChoices && isWanted && !isLoading && !query && options.length === 0 ? emptyChoices : null;

export function SearchableSelect({ label, name, value, onChange, load, errors, hint, required, placeholder = 'Search…', disabled, reloadKey = '', isLabelHidden, emptyChoices }: SearchableSelectProps) {
  const [query, setQuery] = useState('');
  const [isWanted, setWanted] = useState(false);
  const { buttonRef, openOnClick } = useOpenOnClick();
  const { options, isLoading } = useOptions(load, query, isWanted, reloadKey);
  const { pickerRef, chosen } = useFocusAfterChoice(onChange);
  const invalid = !!errors?.length;

  const control = (
    <Combobox value={value} onChange={chosen} onClose={() => setQuery('')} by="id" disabled={disabled}>
      {({ open }) => (<>
        <div ref={pickerRef} className="relative">
          <ComboboxInput data-field={name} autoComplete="off"
            onClick={() => openOnClick(open)}
            aria-invalid={invalid || undefined} aria-required={required || undefined}
            aria-label={isLabelHidden ? label : undefined}
            className={cx(inputClass, value && !required ? 'pr-16' : 'pr-9', invalid && invalidInputClass)}
            displayValue={(option: ChoiceOption | null) => option?.label ?? ''}
            placeholder={placeholder}
            onFocus={() => setWanted(true)}
            onChange={(event) => { setWanted(true); setQuery(event.target.value); }} />
          <div className="absolute inset-y-0 right-0 flex items-center pr-1">
            {value && !required && !disabled && (
              <button type="button" onClick={() => onChange(null)} aria-label={`Clear ${label}`}
                className={cx('rounded p-1 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200', focusRing)}>
                <Icon name="x" className="size-4" />
              </button>
            )}
            <ComboboxButton ref={buttonRef} aria-label={`Show ${label} choices`} onClick={() => setWanted(true)}
              className={cx('rounded p-1 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200', focusRing)}>
              <Icon name="chevrons-up-down" className="size-4" />
            </ComboboxButton>
          </div>
        </div>
        <OptionList options={options} isLoading={isLoading} query={query} emptyChoices={emptyChoices} />
      </>)}
    </Combobox>
  );
  if (isLabelHidden) return control;
  return (
    <ComboShell label={label} errors={errors} hint={hint} required={required} emptyNote={emptyNoteOf(emptyChoices, options, isLoading, query, isWanted)}>
      {control}
    </ComboShell>
  );
}

export interface MultiSearchableSelectProps extends Omit<SearchableSelectProps, 'value' | 'onChange' | 'isLabelHidden'> {
  value: ChoiceOption[];
  onChange: (options: ChoiceOption[]) => void;
}

export function MultiSearchableSelect({ label, name, value, onChange, load, errors, hint, required, placeholder = 'Search to add…', disabled, reloadKey = '', emptyChoices }: MultiSearchableSelectProps) {
  const [query, setQuery] = useState('');
  const [isWanted, setWanted] = useState(false);
  const { options, isLoading } = useOptions(load, query, isWanted, reloadKey);
  const invalid = !!errors?.length;
  const remove = (option: ChoiceOption) => onChange(value.filter((v) => v.id !== option.id));
  const { buttonRef, openOnClick } = useOpenOnClick();
  const { pickerRef, chosen } = useFocusAfterChoice(onChange);

  return (
    <ComboShell label={label} errors={errors} hint={hint} required={required} emptyNote={emptyNoteOf(emptyChoices, options, isLoading, query, isWanted)} before={value.length > 0 && (
        <ul className="mb-2 flex flex-wrap gap-1.5" aria-label={`Chosen ${label.toLowerCase()}`}>
          {value.map((option) => (
            <li key={option.id} className="inline-flex items-center gap-1 rounded-md bg-indigo-50 py-0.5 pr-1 pl-2 text-xs font-medium text-indigo-700 ring-1 ring-indigo-600/20 ring-inset dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-400/30">
              {option.label}
              {!disabled && (
                <button type="button" onClick={() => remove(option)} aria-label={`Remove ${option.label}`}
                  className={cx('rounded p-0.5 hover:bg-indigo-100 dark:hover:bg-indigo-500/20', focusRing)}>
                  <Icon name="x" className="size-3" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}>
      <Combobox multiple value={value} onChange={chosen} onClose={() => setQuery('')} by="id" disabled={disabled}>
        {({ open }) => (<>
          <div ref={pickerRef} className="relative">
            <ComboboxInput data-field={name} autoComplete="off" aria-invalid={invalid || undefined}
              onClick={() => openOnClick(open)}
              className={cx(inputClass, 'pr-9', invalid && invalidInputClass)}
              placeholder={placeholder}
              onFocus={() => setWanted(true)}
              onChange={(event) => { setWanted(true); setQuery(event.target.value); }} />
            <ComboboxButton ref={buttonRef} aria-label={`Show ${label} choices`} onClick={() => setWanted(true)}
              className={cx('absolute inset-y-0 right-1 my-auto h-fit rounded p-1 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200', focusRing)}>
              <Icon name="chevrons-up-down" className="size-4" />
            </ComboboxButton>
          </div>
          <OptionList options={options} isLoading={isLoading} query={query} emptyChoices={emptyChoices} />
        </>)}
      </Combobox>
    </ComboShell>
  );
}
