// One input rule for every route (ARCHITECTURE "Errors": malformed input is a clear 4xx, never a
// 500, and changes nothing): no text the server is handed may contain a NUL character. PostgreSQL
// cannot store one in text and refuses it in a query parameter, so without this rule a NUL in a
// search term, a JSON value or a multipart field reached the database and answered 500.
// Checked after authentication and body parsing, before the route's schema: the query, the path
// parameters and the JSON / form body (values and keys, at any depth); a multipart body is read by
// its handler, so each part (field name, value, file name) is checked as the handler reads it.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './errors';

const NUL = '\u0000';

/** Laravel-style name (`options.0`) of the first string or key under `value` holding a NUL, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return null;
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
  app.addHook('preValidation', async (request: FastifyRequest) => {
    refuseNul(request.params);
    refuseNul(request.query);
    refuseNul(request.body);
    if (request.isMultipart?.()) {
      const parts = request.parts.bind(request);
      request.parts = ((options?: Parameters<typeof parts>[0]) => checkedParts(parts(options) as AsyncIterableIterator<Part>)) as typeof request.parts;
    }
  });
}
