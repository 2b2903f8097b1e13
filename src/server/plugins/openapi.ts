// The API described at /api/docs (issue 4), generated from the same zod schemas the routes
// validate with. A small server-rendered page lists the operations (no script, so the strict
// CSP holds); /api/docs/json is the OpenAPI document for tools.
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Operation = { summary?: string; tags?: string[]; description?: string };

/** Registered before the routes: the swagger plugin collects them as they are added. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${app.config.appName} API`, version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // Each operation also says who may call it (config.auth / config.permission of the route).
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const config = (input.route.config ?? {}) as { auth?: string; permission?: string };
      const who = config.auth === 'none' ? 'Public.' : `Needs a${config.auth === 'partner' ? ' partner' : config.auth === 'app' ? 'n app' : 'ny'} token${config.permission ? ` and ${config.permission}` : ''}.`;
      return { ...output, schema: { ...output.schema, description: who } };
    },
  });

  app.get('/api/docs/json', { config: { auth: 'none' }, schema: { hide: true } }, () => app.swagger());
  app.get('/api/docs', { config: { auth: 'none' }, schema: { hide: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderDocs(app.swagger() as { info: { title: string }; paths?: Record<string, Record<string, Operation>> })));
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function renderDocs(document: { info: { title: string }; paths?: Record<string, Record<string, Operation>> }): string {
  const rows = Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) =>
      `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(operation.tags?.join(', ') ?? '')}</td><td>${escape(operation.summary ?? '')}</td><td>${escape(operation.description ?? '')}</td></tr>`));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left}</style></head>
<body><h1>${escape(document.info.title)}</h1><p>Schemas: <a href="/api/docs/json">OpenAPI document (JSON)</a>. Conventions: docs/api.md, docs/resources.md.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Area</th><th>Summary</th><th>Access</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}
