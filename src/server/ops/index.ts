// Running the product for a firm (issue 30): health and readiness, metrics, request logging. Registered
// once by buildApp, after the auth hook (so the account is known) and before the routes.
import type { FastifyInstance } from 'fastify';
import { registerHealthRoutes } from './health';
import { registerRequestLogging } from './logging';
import { registerMetrics } from './metrics';

export function registerOperations(app: FastifyInstance): void {
  app.decorate('stopping', false);
  registerRequestLogging(app);
  registerHealthRoutes(app);
  registerMetrics(app);
}
