// The server side of bench/ws.ts: a bare Fastify app with the realtime plugin, in its own process so that
// its RSS is measured alone. Reports its port over IPC and answers memory probes after a full GC.
import Fastify from 'fastify';
import { registerRealtime } from '../src/server/realtime/plugin';

const credentials = JSON.parse(process.env.BENCH_CREDENTIALS ?? '{}') as { appId: string; key: string; secret: string };
const app = Fastify({ logger: false });
// Long activity timeout: the benchmark measures idle sockets, not keep-alive traffic.
registerRealtime(app, { ...credentials, activityTimeout: 120 });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });

process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') {
    // Two passes: the first frees objects whose finalisers release more.
    global.gc?.();
    global.gc?.();
    const { rss, heapUsed, external } = process.memoryUsage();
    process.send!({ type: 'memory', rss, heapUsed, external });
  } else if (message.type === 'stop') {
    void app.close().then(() => process.exit(0));
  }
});
