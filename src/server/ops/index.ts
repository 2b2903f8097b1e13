// Running the product for a firm (issue 30): health and readiness, metrics, request logging. Registered
// once by buildApp, after the auth hook (so the account is known) and before the routes.
import type { FastifyInstance } from 'fastify';
import { listenForControl } from './control';
import { registerHealthRoutes } from './health';
import { registerRequestLogging } from './logging';
import { registerMetrics } from './metrics';

export function registerOperations(app: FastifyInstance): void {
  app.decorate('stopping', false);
  // A request that was in flight when the node began to stop gets its answer, then its connection
  // closes: a kept-alive one would hold the stop open for the keep-alive timeout (72 s).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  registerRequestLogging(app);
  registerHealthRoutes(app);
  registerMetrics(app);
  listenForControl(app);
}
