// The input rules for every route (ARCHITECTURE "Errors": malformed input is a clear 4xx, never a
// 500, and changes nothing). A JSON body may nest at most MAX_BODY_DEPTH levels, and a multipart
// field name may not name a prototype (both issue 20; see below). No text the server is handed may
// contain a NUL character: PostgreSQL cannot store one in text and refuses it in a query parameter,
// so without this rule a NUL in a search term, a JSON value or a multipart field reached the
// database and answered 500.
// Checked after authentication and body parsing, before the route's schema: the query, the path
// parameters and the JSON / form body (values and keys, at any depth); a multipart body is read by
// its handler, so each part (field name, value, file name) is checked as the handler reads it.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, validationError } from './errors';

const NUL = '\u0000';

/**
 * The deepest a JSON body may nest (an object or list inside another counts one level). The deepest
 * form we have is a pre-billing statement's lines (body -> lines -> line: 3), so 32 leaves room for
 * any form to come while every accepted body stays shallow enough for the code that walks it again
 * recursively: JSON.stringify for the Idempotency-Key fingerprint overflowed the stack on a body
 * nested 10,000 deep (a 500), and the NUL check below walks exactly this far.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests deeper than `limit`; walked with a list of its own, so no depth can overflow the stack. */
export function isNestedDeeperThan(value: unknown, limit = MAX_BODY_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object' || Buffer.isBuffer(item)) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Field names whose bracketed parts name a prototype (`__proto__[]`, `expense[constructor]`): no
 * form sends them, and a reader that files values under the parts would reach Object.prototype.
 * @fastify/multipart refuses only a bare name such as `__proto__`; this is its answer for the rest.
 */
const PROTOTYPE_SEGMENT = /(^|\[)(__proto__|constructor|prototype)(\]|\[|$)/;

/** Laravel-style name (`options.0`) of the first string or key under `value` holding a NUL, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth >= MAX_BODY_DEPTH || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return itemPath;
    const found = findNul(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** 422 on the field: `{ errors: { note: ['The note field must not contain a NUL character.'] } }`. */
function refusal(field: string) {
  const name = field.replaceAll(NUL, '') || 'body';
  return validationError({ [name]: `The ${name.replaceAll('_', ' ')} field must not contain a NUL character.` });
}

/** Throws a 422 naming the field when `value` (a string, or any parsed JSON) carries a NUL. */
export function refuseNul(value: unknown, field = '') {
  const found = findNul(value, field);
  if (found !== null) throw refusal(found);
}

type Part = MultipartFile | { type: 'field'; fieldname: string; value: unknown };

/** The request's parts, each checked before its reader sees it; a refused file is drained first. */
async function* checkedParts(parts: AsyncIterableIterator<Part>): AsyncIterableIterator<Part> {
  for await (const part of parts) {
    // The field as the 422 names it: `expense[receipts][]`, `receipts[]` -> receipts.
    const field = part.fieldname.replace(/(\[\d*\])+$/, '').replace(/^[\w-]+\[([^\]]+)\]$/, '$1');
    if (PROTOTYPE_SEGMENT.test(part.fieldname)) {
      if (part.type === 'file') part.file.resume();
      throw new HttpError(400, 'The form has a field name that is not allowed.');
    }
    const isNamedBadly = part.type === 'file' && part.filename.includes(NUL);
    if (part.fieldname.includes(NUL) || isNamedBadly || (part.type === 'field' && typeof part.value === 'string' && part.value.includes(NUL))) {
      if (part.type === 'file') part.file.resume();
      if (isNamedBadly && !part.fieldname.includes(NUL)) throw validationError({ [field]: 'The file name must not contain a NUL character.' });
      throw refusal(field);
    }
    yield part;
  }
}

export function registerInputRules(app: FastifyInstance) {
  // Synchronous (issue 27): every check here is, so no promise per request.
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    // First: everything after this (the NUL check, the route's schema, idempotency) may walk the body.
    if (isNestedDeeperThan(request.body)) throw new HttpError(400, 'The request body is nested too deeply.');
    refuseNul(request.params);
    refuseNul(request.query);
    refuseNul(request.body);
    if (request.isMultipart?.()) {
      const parts = request.parts.bind(request);
      request.parts = ((options?: Parameters<typeof parts>[0]) => checkedParts(parts(options) as AsyncIterableIterator<Part>)) as typeof request.parts;
    }
    done();
  });
}
