// How answers are written (decision 029). Every route declares its response schema (src/shared):
// the OpenAPI document describes it and the client's types come from it. Production writes the
// value as it is (JSON.stringify), so a declaration costs nothing at run time and never strips a key.
// The tests' apps (config.checkResponses) first check the value against the schema: an answer that
// disagrees is a 500 naming the route and the disagreement, so every API test checks every answer it
// receives. An answer many requests share (a permission set, issue 27) is written to JSON once, when
// it is prepared, and that text is sent from then on.
import type { FastifyInstance } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import type { z } from 'zod';

/** The answer disagreed with the route's declared schema (only when responses are checked). */
export class ResponseMismatchError extends Error {
  constructor(public method: string, public url: string, public issues: z.core.$ZodIssue[]) {
    super(`The answer of ${method} ${url} does not match its declared schema: ${issues.slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}${issues.length > 5 ? ` (and ${issues.length - 5} more)` : ''}`);
  }
}

/** The JSON of each prepared answer, by the answer object itself. */
const preparedBodies = new WeakMap<object, string>();

/**
 * Freezes an answer that many requests send unchanged (and the arrays and objects in it) and writes
 * its JSON once: a route that answers with this very object sends that text without serialising again.
 * Serialising the admin's 140 permission names cost about 15 µs a request, a quarter of the token-only route.
 */
export function preparedAnswer<T extends object>(value: T): Readonly<T> {
  deepFreeze(value);
  preparedBodies.set(value, JSON.stringify(value));
  return value;
}

function deepFreeze(value: object) {
  for (const item of Object.values(value)) if (typeof item === 'object' && item !== null) deepFreeze(item as object);
  Object.freeze(value);
}

const preparedBody = (data: unknown) => (typeof data === 'object' && data !== null ? preparedBodies.get(data) : undefined);

const plain: FastifySerializerCompiler<unknown> = () => (data) => preparedBody(data) ?? JSON.stringify(data);

const checking: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const zod = schema as z.ZodType;
  return (data) => {
    // What is checked is what is sent: the JSON as the client reads it (a Date is its ISO string there).
    const prepared = preparedBody(data);
    const json = prepared ?? JSON.stringify(data);
    const result = zod.safeParse(json === undefined ? undefined : JSON.parse(json));
    if (!result.success) throw new ResponseMismatchError(method, url, result.error.issues);
    return json;
  };
};

export function registerResponseSerialiser(app: FastifyInstance, isChecked: boolean) {
  app.setSerializerCompiler(isChecked ? checking : plain);
}
