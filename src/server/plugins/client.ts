// Serves the built PWA: hashed assets with long caching, index.html with the runtime app config
// (name, environment) injected and a CSP that allows exactly its own inline scripts.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** Registers the client and the not-found handler; answers the CSP hashes of index.html's inline scripts. */
export async function registerClient(app: FastifyInstance, config: Config): Promise<{ scriptHashes: string[] }> {
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ message: `The route ${request.method} ${request.url.split('?')[0]} could not be found.` });
  const indexFile = config.clientDir && join(config.clientDir, 'index.html');
  if (!indexFile || !existsSync(indexFile)) {
    app.log.warn(`No built client at ${config.clientDir}; run "npm run build". Serving the API only.`);
    app.setNotFoundHandler(notFound);
    return { scriptHashes: [] };
  }
  const appConfig = JSON.stringify({ name: config.appName, env: config.appEnv }).replace(/</g, '\\u003c');
  const html = readFileSync(indexFile, 'utf8')
    .replace(/(<script id="app-config" type="application\/json">)[\s\S]*?(<\/script>)/, `$1${appConfig}$2`)
    .replace(/<title>[^<]*<\/title>/, `<title>${config.appName.replace(/[<&]/g, '')}</title>`);
  const scriptHashes = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);

  await app.register(fastifyStatic, {
    root: config.clientDir!,
    wildcard: false,
    index: false,
    setHeaders(reply, path) {
      // Vite names assets by content hash, so they never change; everything else revalidates.
      reply.header('Cache-Control', path.includes(join('dist', 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const sendIndex = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(html);
  app.get('/', (_request, reply) => sendIndex(reply));
  // SPA fallback: an unknown GET outside the API and the socket paths is a client route.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isClientRoute = request.method === 'GET' && !/^\/(api|app|apps)\//.test(path) && !/\.[a-z0-9]+$/i.test(path);
    return isClientRoute ? sendIndex(reply) : notFound(request, reply);
  });
  return { scriptHashes };
}
