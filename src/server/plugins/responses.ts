// How answers are written (decision 029). Every route declares its response schema (src/shared):
// the OpenAPI document describes it and the client's types come from it. Production writes the
// value as it is (JSON.stringify), so a declaration costs nothing at run time and never strips a key.
// The tests' apps (config.checkResponses) first check the value against the schema: an answer that
// disagrees is a 500 naming the route and the disagreement, so every API test checks every answer it
// receives.
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

const plain: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

const checking: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const zod = schema as z.ZodType;
  return (data) => {
    // What is checked is what is sent: the JSON as the client reads it (a Date is its ISO string there).
    const json = JSON.stringify(data);
    const result = zod.safeParse(json === undefined ? undefined : JSON.parse(json));
    if (!result.success) throw new ResponseMismatchError(method, url, result.error.issues);
    return json;
  };
};

export function registerResponseSerialiser(app: FastifyInstance, isChecked: boolean) {
  app.setSerializerCompiler(isChecked ? checking : plain);
}
