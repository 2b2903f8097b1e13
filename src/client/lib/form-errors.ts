// The form engine's helpers for forms with more than text fields (decision 013-one-form-engine): a resolver over
// the payload the server reads, and errors between react-hook-form's nested shape and the server's dotted keys.
// Apart from lib/form.ts so that the login screen does not load them.
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { FieldErrors } from './api';
import { formResolver } from './form';
import { issuesByField } from '../../shared/validation';

type Schema = z.ZodType<FieldValues, FieldValues>;

/**
 * The resolver of a form whose values are not yet what the server reads (form strings, file selections): the
 * schema checks `toPayload(values)`, whose keys are the form's; `extra` adds the checks a schema cannot make
 * (files, a required attachment), by dotted path. The values pass on unchanged when all is well.
 */
export function payloadResolver<V extends FieldValues>(schema: Schema, toPayload: (values: V) => FieldValues, extra?: (values: V, payload: FieldValues) => FieldErrors): Resolver<V> {
  return async (values, context, options) => {
    const payload = toPayload(values);
    const checked = await formResolver<FieldValues>(schema)(payload, context, options as never);
    const errors = hookErrors(extra?.(values, payload) ?? {}, { ...checked.errors });
    return Object.keys(errors).length ? { values: {}, errors: errors as never } : { values, errors: {} };
  };
}

/** zod issues as server-shaped errors keyed by dotted path (`options.1`), for checks made outside a resolver. */
export function schemaErrors(error: z.ZodError): FieldErrors {
  return issuesByField(error.issues, '_form');
}

/** react-hook-form's nested errors as server-shaped ones by dotted path (`lines.2.hours`), the form's own left out. */
export function flattenErrors(errors: object, prefix = ''): FieldErrors {
  const found: FieldErrors = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object' || key === 'ref' || (!prefix && key === 'root')) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const { message } = value as { message?: unknown };
    if (typeof message === 'string' && message) (found[path] ??= []).push(message);
    Object.assign(found, flattenErrors(Object.fromEntries(Object.entries(value).filter(([k]) => !['message', 'type', 'types', 'ref'].includes(k))), path));
  }
  return found;
}

/** Server-shaped errors (dotted keys) as react-hook-form's nested ones, for a resolver's answer. */
export function hookErrors(found: FieldErrors, into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [path, messages] of Object.entries(found)) {
    const segments = path.split('.');
    let node = into;
    segments.slice(0, -1).forEach((segment, index) => {
      node[segment] ??= /^\d+$/.test(segments[index + 1]) ? [] : {};
      node = node[segment] as Record<string, unknown>;
    });
    node[segments[segments.length - 1]] = { type: 'custom', message: messages.join(' ') };
  }
  return into;
}

