// buildApp(config) -> Fastify instance. main.ts listens with it; tests build it too.
import { randomFillSync } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { type Database, type Db, openDatabase } from './db/client';
import { seed } from './db/seed';
import { registerAuth } from './plugins/auth';
import { registerClient } from './plugins/client';
import { HttpError, registerErrorHandler } from './plugins/errors';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerResponseSerialiser } from './plugins/responses';
import { registerInputRules } from './plugins/input';
import { registerIdempotency } from './plugins/idempotency';
import { type Limiter, memoryLimiter, redisLimiter } from './plugins/limiter';
import { createMailer, type Mailer } from './plugins/mail';
import { openStorage, type Storage } from './plugins/storage';
import { TIME_SHEET_MAX_BYTES } from '../shared/resources/time-sheet';
import { registerAuthRoutes } from './modules/auth/routes';
import { registerDashboardRoutes } from './modules/dashboard/routes';
import { registerDelegationRoutes } from './modules/delegation/routes';
import { registerMasterDataRoutes } from './modules/master-data/routes';
import { registerNotificationRoutes } from './modules/notification/routes';
import { registerPushRoutes } from './modules/push/routes';
import { registerPositionRoutes } from './modules/position/routes';
import { registerQuestionRoutes } from './modules/question/routes';
import { registerRoleRoutes } from './modules/role/routes';
import { registerUserRoutes } from './modules/user/routes';
import { registerSettingRoutes } from './modules/setting/routes';
import { followFirmTimeZone } from './modules/setting/time-zone';
import { SettingCache } from './modules/setting/setting-cache';
import { registerTimeSheetRoutes } from './modules/time-sheet/routes';
import { registerExpenseRoutes } from './modules/expense/routes';
import { registerReimbursementRoutes } from './modules/reimbursement/routes';
import { registerLeaveRoutes } from './modules/leave/routes';
import { registerHolidayRoutes } from './modules/holiday/routes';
import { registerPartnerRoutes } from './modules/partner/routes';
import { registerPartnerInvoiceRoutes } from './modules/partner-invoice/routes';
import { registerCandidateRoutes } from './modules/candidate/routes';
import { registerInterviewRoutes } from './modules/interview/routes';
import { registerPreBillingRoutes } from './modules/pre-billing/routes';
import { registerAssessmentRoutes } from './modules/assessment/routes';
import { registerBgvCheckRoutes } from './modules/bgv-check/routes';
import { registerDealRoutes } from './modules/deal/routes';
import { registerRequestRoutes } from './modules/request/routes';
import { registerOnboardingRoutes } from './modules/onboarding/routes';
import { registerContractRoutes } from './modules/contract/routes';
import { registerComplianceRoutes } from './modules/compliance/routes';
import { registerAuditRoutes } from './modules/audit/routes';
import { registerSetupRoutes } from './modules/setup/routes';
import { createJobQueue } from './jobs/queue';
import { registerResource } from './resources/register';
import { registerPlainResources } from './resources/registry';
import { raiseAnnouncementMessageEvent } from './realtime/events';
import { registerRealtime } from './realtime/plugin';
import { registerOperations } from './ops';
import { type LogStream, loggerOptions, requestIdOptions } from './ops/logging';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    mailer: Mailer;
    limiter: Limiter;
    redis: Redis | null;
    storage: Storage;
    /** The settings every signed-in answer carries, held on this node until the database says they changed (decision 053). */
    nodeSettings: SettingCache;
  }
}

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests share setup this way). */
  database?: Database;
  /** Replace the mailer (tests read mail through a real SMTP server instead). */
  mailer?: Mailer;
  /** Where log lines go (tests read them); the process's stdout otherwise. */
  logStream?: LogStream;
}

/** Files one multipart request may carry (the largest `maxFiles` of a file field is 10: receipts). */
const MAX_FILES_PER_REQUEST = 11;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    ...requestIdOptions,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Laravel-style bracketed query keys (filter[status]=x) arrive as plain keys; parse them ourselves later.
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  registerResponseSerialiser(app, !!config.checkResponses);

  const database = options.database ?? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, inMemory: config.inMemoryDatabase });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('redis', redis);
  app.decorate('storage', await openStorage(config));
  app.decorate('limiter', redis ? redisLimiter(redis) : memoryLimiter());
  app.decorate('mailer', options.mailer ?? createMailer({ mailUrl: config.mailUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log, logLinks: config.appEnv !== 'production' }));
  app.decorate('jobs', createJobQueue(app));
  app.decorate('resources', new Map());
  app.decorate('nodeSettings', new SettingCache());

  const seeded = await seed(database.db, { email: config.adminEmail, password: config.adminPassword });
  if (seeded.adminCreated) {
    app.log.info(`First admin created: ${config.adminEmail} / ${config.adminPassword} (change this password after logging in)`);
  }

  // Before any route answers: every "today" is the firm's.
  await followFirmTimeZone(app);

  registerErrorHandler(app);
  // First of the onRequest hooks, so that answers refused by the later ones (401, 403, 419) carry the headers too.
  registerSecurityHeaders(app);
  registerInputRules(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  // Up to MAX_FILES_PER_REQUEST files (an expense's 10 receipts, then one more so that the field's own
  // `maxFiles` answers 422 rather than a bare 413); each field's size and count are checked where the file is stored.
  await app.register(fastifyMultipart, { limits: { fileSize: TIME_SHEET_MAX_BYTES, files: MAX_FILES_PER_REQUEST, fields: 30, fieldSize: 64 * 1024 } });
  registerAuth(app);
  registerOperations(app);
  registerCsrf(app);
  registerIdempotency(app);
  // Pusher protocol at /app/{key}, channel auth at /api/broadcasting/auth, the HTTP API at /apps/{id}.
  registerRealtime(app, { ...config.pusher, redisUrl: config.redisUrl });

  await registerClient(app, config);

  // Before the routes: it collects them as they are added.
  await registerOpenApi(app);
  await app.register(async (api) => {
    registerAuthRoutes(api, 'app');
    registerAuthRoutes(api, 'partner');
    registerNotificationRoutes(api);
    registerPushRoutes(api);
    registerAuditRoutes(api);
    registerSettingRoutes(api, (announcement, previous) => raiseAnnouncementMessageEvent(app, announcement, previous));
    registerDashboardRoutes(api);
    registerDelegationRoutes(api);
    registerSetupRoutes(api);
    registerMasterDataRoutes(api);
    registerPositionRoutes(api);
    registerQuestionRoutes(api);
    registerUserRoutes(api);
    registerRoleRoutes(api);
    registerTimeSheetRoutes(api);
    registerExpenseRoutes(api);
    registerReimbursementRoutes(api);
    registerLeaveRoutes(api);
    registerHolidayRoutes(api);
    registerPartnerRoutes(api);
    registerPreBillingRoutes(api);
    registerPartnerInvoiceRoutes(api);
    registerCandidateRoutes(api);
    // Issue 28: interviews, scorecards, offer letters and a position's pipeline.
    registerInterviewRoutes(api);
    registerAssessmentRoutes(api);
    registerBgvCheckRoutes(api);
    registerDealRoutes(api);
    registerRequestRoutes(api);
    registerOnboardingRoutes(api);
    registerContractRoutes(api);
    registerComplianceRoutes(api);
    // Last: every definition no module registered is plain CRUD on the table named after it.
    await registerPlainResources(api, registerResource);
  }, { prefix: '/api' });

  app.addHook('onClose', async () => {
    await app.jobs.stop(); // first: the running job still needs the database
    app.mailer.close();
    await app.limiter.close();
    redis?.disconnect();
    if (!options.database) await database.close();
  });
  return app;
}

/** Bytes of one XSRF token; tokens are cut from a pool filled RESERVE_TOKENS at a time. */
const TOKEN_BYTES = 20;
const RESERVE_TOKENS = 256;
const tokenPool = Buffer.alloc(TOKEN_BYTES * RESERVE_TOKENS);
let tokenOffset = tokenPool.length;

/**
 * A new XSRF token: 20 bytes of the same CSPRNG as randomBytes(20), hex. One randomFillSync call per
 * 256 tokens instead of one randomBytes call each (issue 27: it was a visible part of the
 * no-database request's profile); each byte of the pool is handed out once.
 */
function newXsrfToken(): string {
  if (tokenOffset === tokenPool.length) {
    randomFillSync(tokenPool);
    tokenOffset = 0;
  }
  tokenOffset += TOKEN_BYTES;
  return tokenPool.toString('hex', tokenOffset - TOKEN_BYTES, tokenOffset);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** GET /sanctum/csrf-cookie sets XSRF-TOKEN; a state-changing request that echoes a different value is refused. */
function registerCsrf(app: FastifyInstance) {
  app.get('/sanctum/csrf-cookie', (request, reply) => {
    const token = request.cookies['XSRF-TOKEN'] ?? newXsrfToken();
    reply.setCookie('XSRF-TOKEN', token, { path: '/', sameSite: 'lax', httpOnly: false, secure: request.protocol === 'https', maxAge: 7200 });
    return reply.status(204).send();
  });
  // Synchronous (issue 27): no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const header = request.headers['x-xsrf-token'];
    const cookie = request.cookies['XSRF-TOKEN'];
    if (header && cookie && header !== cookie && decodeURIComponent(String(header)) !== cookie) {
      throw new HttpError(419, 'CSRF token mismatch.');
    }
    done();
  });
}
