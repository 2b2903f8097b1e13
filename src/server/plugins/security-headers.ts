// The security headers every response carries (CONVENTIONS "Security habits"), computed ONCE by
// helmet at start-up and copied onto each reply (issue 27, decision 027).
// Why not @fastify/helmet: it calls helmet(options) on every request, which parses the
// Content-Security-Policy directives and builds a dozen middlewares each time; profiled on
// GET /sanctum/csrf-cookie that was the largest single cost of a request that touches no database.
// Our options hold no per-request values (no nonces, no functions), so helmet's answer is the same
// for every request: we ask it once and keep the headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      // PDF previews of attachments are blob: URLs in an iframe.
      frameSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      mediaSrc: ["'self'", 'data:'],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  // The PWA and its service worker are same-origin; these defaults would break opening files in new tabs.
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for `options`, read off a response stand-in: helmet only calls
 * setHeader / removeHeader on it (the request is not read for options without functions).
 */
export function helmetHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) { headers[name.toLowerCase()] = String(value); return response; },
    removeHeader(name: string) { delete headers[name.toLowerCase()]; },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => { failure = error; });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * First of the onRequest hooks, so that answers refused by the later ones (401, 403, 419) carry the
 * headers too; a plain synchronous hook (no promise per request). helmet also removes
 * X-Powered-By, which Fastify never sets.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
