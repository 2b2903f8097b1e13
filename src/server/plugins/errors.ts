// One error handler (ARCHITECTURE "Errors"): 422 {message, errors} for validation, a clear 4xx for
// malformed input, and a 500 that never leaks internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { issuesByField } from '../../shared/validation';
import { ResponseMismatchError } from './responses';

/**
 * An error with an HTTP status and an optional spec status code (FORCE_RESET_PASSWORD...). A 4xx is an
 * answer, not a fault: it carries no stack trace, whose capture cost more than the rest of a row's
 * abilities (each refusal that makes `abilities.update` false is one of these; issue 27).
 */
export class HttpError extends Error {
  statusCode: number;
  status?: string;
  errors?: Record<string, string[]>;
  /** More keys of the answer's body (a refused duplicate names the record it duplicates). */
  extra?: Record<string, unknown>;

  constructor(statusCode: number, message: string, status?: string, errors?: Record<string, string[]>, extra?: Record<string, unknown>) {
    const limit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.statusCode = statusCode;
    this.status = status;
    this.errors = errors;
    this.extra = extra;
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

/** A zod failure as the 422 a JSON body's schema failure answers: each message under its field's dotted path. */
export function issuesError(issues: Parameters<typeof issuesByField>[0]): HttpError {
  return validationError(issuesByField(issues));
}

const clientErrors: Record<string, { statusCode: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, message: 'The request body is empty but declared as JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: 'Unsupported content type.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: 'Invalid content length.' },
  // @fastify/multipart
  FST_INVALID_MULTIPART_CONTENT_TYPE: { statusCode: 415, message: 'Send this request as multipart/form-data.' },
  FST_PARTS_LIMIT: { statusCode: 413, message: 'The form has too many parts.' },
  FST_FILES_LIMIT: { statusCode: 413, message: 'The form has too many files.' },
  FST_FIELDS_LIMIT: { statusCode: 413, message: 'The form has too many fields.' },
  FST_REQ_FILE_TOO_LARGE: { statusCode: 413, message: 'The file is too large.' },
  FST_PROTO_VIOLATION: { statusCode: 400, message: 'The form has a field name that is not allowed.' },
  FST_INVALID_JSON_FIELD_ERROR: { statusCode: 400, message: 'A form field declared as JSON is not valid JSON.' },
  FST_MP_PREMATURE_CLOSE: { statusCode: 400, message: 'The request was closed before the form was complete.' },
};

/**
 * What busboy (the multipart parser) throws as a plain Error: a body that is not the multipart it
 * claims to be. Matched by message, as busboy gives no code.
 */
const malformedMultipart: [RegExp, string][] = [
  [/^Multipart: Boundary not found$/, 'The multipart body has no boundary in its Content-Type.'],
  [/^Boundary required$/, 'The multipart body has no boundary in its Content-Type.'],
  [/unexpected end of multipart data|terminated early/i, 'The multipart body ended before it was complete.'],
  [/^Unsupported Content-Type\.$|^Missing Content-Type-header\.$/, 'The body is not multipart/form-data.'],
];

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22: a NUL in text, a date or number out of range, a
 * value too long): a value the route's rules should have refused. A 422 rather than a 500, logged so
 * the missing rule is found. Drizzle wraps the driver's error in `cause`.
 */
function databaseDataException(error: unknown): string | null {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) ? code : null;
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.status ? { status: error.status } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
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
    const multipart = typeof error.message === 'string' ? malformedMultipart.find(([pattern]) => pattern.test(error.message)) : undefined;
    if (multipart) return reply.status(400).send({ message: multipart[1] });
    const dataException = databaseDataException(error);
    if (dataException) {
      request.log.warn({ err: error, sqlState: dataException }, 'the database refused a value the input rules let through');
      return reply.status(422).send({ message: 'The given data was invalid: the database cannot store one of its values.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    // Only the tests' apps check answers (decision 029): the test that received it reads why.
    if (error instanceof ResponseMismatchError) return reply.status(500).send({ message: error.message });
    return reply.status(500).send({ message: 'Server Error' });
  });

}
