// Serves the built PWA: hashed assets with long caching, and index.html (read per request, so a
// rebuild under a running server is picked up) with the runtime app config (name, environment, the
// public Pusher key the websocket client needs; the secret never leaves the server) injected.
// index.html has no inline script, so the CSP allows scripts from 'self' only.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { getFirmProfile } from '../modules/setting/firm-profile';

/** Registers the client and the not-found handler (the SPA fallback for client routes). */
export async function registerClient(app: FastifyInstance, config: Config): Promise<void> {
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ message: `The route ${request.method} ${request.url.split('?')[0]} could not be found.` });
  const indexFile = config.clientDir && join(config.clientDir, 'index.html');
  if (!indexFile || !existsSync(indexFile)) {
    app.log.warn(`No built client at ${config.clientDir}; run "npm run build". Serving the API only.`);
    app.setNotFoundHandler(notFound);
    return;
  }
  const sendIndex = async (reply: FastifyReply) => {
    // The firm's profile (issue 22) is read per page load: its name titles the page and the header.
    const firm = await getFirmProfile(app.db);
    const appConfig = JSON.stringify({ name: config.appName, env: config.appEnv, pusherKey: config.pusher.key, firm }).replace(/</g, '\\u003c');
    const html = (await readFile(indexFile, 'utf8'))
      .replace(/(<script id="app-config" type="application\/json">)[\s\S]*?(<\/script>)/, () => `<script id="app-config" type="application/json">${appConfig}</script>`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${(firm.name ?? config.appName).replace(/[<&]/g, '')}</title>`);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  await app.register(fastifyStatic, {
    root: config.clientDir!,
    // Files are looked up per request; a missing one falls through to the not-found handler below.
    wildcard: true,
    index: false,
    setHeaders(reply, path) {
      // Vite names assets by content hash, so they never change; everything else revalidates.
      reply.header('Cache-Control', path.includes(join('dist', 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.get('/', (_request, reply) => sendIndex(reply));
  // The service worker precaches /index.html as the offline app shell: it gets the runtime config too.
  // (/sw.js itself is not under assets/, so it is sent with no-cache above and updates are seen at once.)
  app.get('/index.html', (_request, reply) => sendIndex(reply));
  // SPA fallback: an unknown GET outside the API and the socket paths is a client route.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isClientRoute = request.method === 'GET' && !/^\/(api|app|apps)\//.test(path) && !/\.[a-z0-9]+$/i.test(path);
    return isClientRoute ? sendIndex(reply) : notFound(request, reply);
  });
}
