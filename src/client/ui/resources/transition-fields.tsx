// The fields a transition asks for (issue 24: approving leave as "back fill arranged" names the
// back-fill person): rendered in the transition dialog from the definition, starting from the row's
// current value, and sent as the body's `values`; the server checks them with the definition's schema.
import type { ResourceDefinition, TransitionField } from '../../../shared/resources/define';
import { api } from '../../lib/api';
import { SearchableSelect, type ChoiceOption } from '../combobox';
import { DateField } from '../date-input';
import { TextField } from '../field';
import { loadOptions } from './resource-api';
import { relatedOptions } from './resource-values';
import type { Row } from './use-resource-query';

export type TransitionFieldValues = Record<string, ChoiceOption | string | null>;

/** The declared fields of a transition, by name. */
export function transitionFieldsOf(definition: ResourceDefinition, name: string): readonly TransitionField[] {
  return definition.workflow?.transitions.find((t) => t.name === name)?.fields ?? [];
}

/** Where the dialog starts: the row's value (a reference with its label), or empty for several rows. */
export function initialTransitionValues(definition: ResourceDefinition, fields: readonly TransitionField[], row: Row | null): TransitionFieldValues {
  return Object.fromEntries(fields.map(({ key }) => {
    const field = definition.fields[key];
    if (!row) return [key, field?.input === 'reference' ? null : ''];
    if (field?.input === 'reference') return [key, relatedOptions(field, row)[0] ?? null];
    return [key, row[key] === null || row[key] === undefined ? '' : String(row[key])];
  }));
}

/** The body's `values`: ids for references, trimmed text, null when empty. */
export function transitionPayload(values: TransitionFieldValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [
    key, value === null ? null : typeof value === 'string' ? (value.trim() || null) : Number(value.id),
  ]));
}

/** A required field left empty, said before anything is sent (the server says it too). */
export function missingTransitionFields(definition: ResourceDefinition, fields: readonly TransitionField[], values: TransitionFieldValues): Record<string, string[]> {
  return Object.fromEntries(fields.filter((field) => field.isRequired && (values[field.key] === null || values[field.key] === ''))
    .map((field) => [field.key, [`The ${(definition.fields[field.key]?.label ?? field.key).toLowerCase()} field is required.`]]));
}

export function TransitionFields({ definition, fields, values, errors, row, onChange }: {
  definition: ResourceDefinition; fields: readonly TransitionField[]; values: TransitionFieldValues; errors: Record<string, string[] | undefined>;
  row: Row | null; onChange: (key: string, value: ChoiceOption | string | null) => void;
}) {
  return (
    <>
      {fields.map((declared) => {
        const field = definition.fields[declared.key];
        if (!field) return null;
        const value = values[declared.key];
        const label = declared.label ?? field.label;
        if (field.input === 'date') {
          return (
            <DateField key={declared.key} name={declared.key} label={label} required={declared.isRequired} hint={declared.help}
              value={typeof value === 'string' ? value : ''} onChange={(next) => onChange(declared.key, next)} errors={errors[declared.key]} />
          );
        }
        if (field.input === 'reference' && field.reference) {
          const load = async (search: string): Promise<ChoiceOption[]> => {
            if (!declared.options) return loadOptions(field.reference!.resource, search);
            const params: Record<string, string> = search ? { search } : {};
            for (const [param, rowKey] of Object.entries(declared.options.rowParams ?? {})) if (row?.[rowKey] !== undefined && row[rowKey] !== null) params[param] = String(row[rowKey]);
            return (await api.get<{ data: ChoiceOption[] }>(declared.options.path, { params, silent: true })).data;
          };
          return (
            <SearchableSelect key={declared.key} name={declared.key} label={label} required={declared.isRequired} hint={declared.help}
              value={typeof value === 'object' ? value : null} onChange={(choice) => onChange(declared.key, choice)} load={load} errors={errors[declared.key]} />
          );
        }
        return (
          <TextField key={declared.key} name={declared.key} data-field={declared.key} label={label} required={declared.isRequired} hint={declared.help}
            value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(declared.key, event.target.value)} errors={errors[declared.key]} />
        );
      })}
    </>
  );
}
