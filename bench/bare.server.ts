// The reference every throughput benchmark measures beside its route (issue 27): a bare Fastify
// route answering static JSON, in a process of its own. Reports {port} over IPC.
import Fastify from 'fastify';

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ roles: ['admin'], permissions: ['can-view-dashboard'] }));
await bare.listen({ port: 0, host: '127.0.0.1' });
process.send!({ port: (bare.server.address() as { port: number }).port });
process.on('SIGTERM', () => process.exit(0));
