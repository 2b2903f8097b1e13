// One error handler (ARCHITECTURE "Errors"): 422 {message, errors} for validation, a clear 4xx for
// malformed input, and a 500 that never leaks internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error with an HTTP status and an optional spec status code (FORCE_RESET_PASSWORD...). */
export class HttpError extends Error {
  constructor(public statusCode: number, message: string, public status?: string, public errors?: Record<string, string[]>) {
    super(message);
  }
}

/** Laravel-shaped 422: the first message, plus how many more there are. */
export function validationError(errors: Record<string, string[] | string>): HttpError {
  const normalised = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
  const messages = Object.values(normalised).flat();
  const more = messages.length - 1;
  const message = more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : messages[0];
  return new HttpError(422, message ?? 'The given data was invalid.', undefined, normalised);
}

const clientErrors: Record<string, { statusCode: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, message: 'The request body is empty but declared as JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: 'Unsupported content type.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: 'Invalid content length.' },
};

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.status ? { status: error.status } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        // instancePath is '/field/0/sub'; Laravel names nested fields with dots.
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        (errors[field] ??= []).push(issue.message ?? 'The field is invalid.');
      }
      const httpError = validationError(errors);
      return reply.status(422).send({ message: httpError.message, errors: httpError.errors });
    }
    const known = error.code ? clientErrors[error.code] : undefined;
    if (known) return reply.status(known.statusCode).send({ message: known.message });
    if (error.statusCode === 429) return reply.status(429).send({ message: error.message || 'Too many attempts. Please try again later.' });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Server Error' });
  });

}
