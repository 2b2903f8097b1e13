// The text of a CSV export (docs/resources.md): the list's columns with each amount's currency, the
// cells as the list shows them, quoted so that a spreadsheet never runs one as a formula.
import type { FieldDefinition, ResourceDefinition } from '../../shared/resources/define';
import { formatDay, formatDayTime } from '../../shared/dates';
import type { Row } from './types';

/**
 * The columns of an export: the list's, and beside each amount its currency when the list shows it
 * elsewhere (a badge, the amount's own cell) or not at all, so no figure leaves without its currency.
 */
export function exportFields(definition: ResourceDefinition): (readonly [string, FieldDefinition])[] {
  const fields: (readonly [string, FieldDefinition])[] = [];
  const keys = new Set(definition.columns);
  for (const key of definition.columns) {
    const field = definition.fields[key];
    fields.push([key, field]);
    const currency = field.currencyField;
    if (currency && !keys.has(currency) && definition.fields[currency]) {
      fields.push([currency, definition.fields[currency]]);
      keys.add(currency);
    }
  }
  return fields;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

/**
 * The text a list cell shows: option labels, reference labels, lists joined; amounts with two
 * decimals; dates as YYYY-MM-DD, a timestamp as the firm's day (and time, where the field is not a date).
 */
export function displayValue(field: FieldDefinition, key: string, row: Row): unknown {
  if (field.reference) {
    const related = row[field.reference.relation];
    const labelOf = (item: unknown) => (item as Row | null)?.[field.reference!.labelKey] ?? '';
    return Array.isArray(related) ? related.map(labelOf).join('; ') : labelOf(related);
  }
  const value = row[key];
  if (field.options) return field.options.find((o) => String(o.value) === String(value))?.label ?? value;
  if (field.currencyField && value !== null && value !== undefined && value !== '' && Number.isFinite(Number(value))) return Number(value).toFixed(2);
  // spec §9: dates read YYYY-MM-DD, in the file as on the screen.
  if (typeof value === 'string' && TIMESTAMP.test(value)) return field.input === 'date' ? formatDay(value) : formatDayTime(value);
  return Array.isArray(value) ? value.join('; ') : value;
}

/** RFC 4180 quoting; a leading = + - @ is neutralised so a spreadsheet never runs a cell as a formula. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
