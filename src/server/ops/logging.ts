// Issue 30: log lines are JSON (pino, through Fastify), each request's lines carry its request id and,
// once the token is checked, the account. Addresses lose their query string and anything shaped like a
// token, and the fields that hold credentials are censored wherever they are logged.
import { randomUUID } from 'node:crypto';
import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from '../config';

/** A path segment this long of token characters is a capability link, a reset or a verification token. */
const TOKEN_SEGMENT = /\/[A-Za-z0-9_.~%-]{24,}(?=\/|$)/g;

export function safePath(url: string): string {
  return url.split('?')[0].replace(TOKEN_SEGMENT, '/[token]');
}

const SECRET_FIELDS = ['password', 'current_password', 'password_confirmation', 'token', 'access_token', 'secret', 'authorization', 'cookie'];

/** Where pino writes its lines (a test reads them; stdout otherwise). */
export interface LogStream { write(line: string): unknown }

/** Fastify's logger settings; `stream` lets a test read the lines. */
export function loggerOptions(config: Config, stream?: LogStream): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent' && !stream) return false;
  return {
    level: config.logLevel === 'silent' ? 'info' : config.logLevel,
    ...(stream ? { stream } : {}),
    redact: { paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((field) => `*.${field}`), 'req.headers.*'], censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: safePath(request.url), remote_address: request.ip }),
    },
  };
}

/** The request id (ours, also answered as X-Request-Id) and the account on every line of a request. */
export const requestIdOptions = {
  genReqId: () => randomUUID(),
  logController: new LogController({ requestIdLogLabel: 'request_id' }),
} satisfies FastifyServerOptions;

export function registerRequestLogging(app: FastifyInstance): void {
  // Synchronous (issue 27): no promise per request for what needs no waiting.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (request.account) {
      const log = request.log.child({ account_id: request.account.id, account_type: request.account.type });
      request.log = log;
      reply.log = log;
    }
    done();
  });
}
