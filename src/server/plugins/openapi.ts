// The API described at /api/docs (issue 4), generated from the same zod schemas the routes
// validate with. A small server-rendered page lists the operations (no script, so the strict
// CSP holds); /api/docs/json is the OpenAPI document for tools.
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { RouteAuth } from './auth';
import { broadcastingAuthAnswer, broadcastingAuthBody } from '../realtime/auth-route';
import { fileFieldsOf } from '../resources/attachments';
import { registeredResources } from '../resources/register';
import { timeSheetUploadSchema } from '../../shared/resources/time-sheet';
import { downloads } from '../../shared/schemas/responses';

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
      const config = (input.route.config ?? {}) as { auth?: RouteAuth; permission?: string };
      const who = config.auth === 'none' ? 'Public.' : typeof config.auth === 'object' ? `Public, with a ${config.auth.capability} link's token.` : `Needs a${config.auth === 'partner' ? ' partner' : config.auth === 'app' ? 'n app' : 'ny'} token${config.permission ? ` and ${config.permission}` : ''}.`;
      // Multipart routes validate their parts themselves, so their schema has no body: describe it here.
      const body = multipartBody(app, String(input.route.method), input.url);
      const response = withDownloads(input.schema?.response as Record<string, z.ZodType> | undefined, (output.schema as { response?: Record<string, JsonSchema> } | undefined)?.response);
      return { ...output, schema: { ...output.schema, description: who, ...(body ? { body } : {}), ...(response ? { response } : {}) } };
    },
    transformObject: (input) => withEarlyRoutes((input as { openapiObject: OpenApiDocument }).openapiObject) as never,
  });

  app.get('/api/docs/json', { config: { auth: 'none' }, schema: { hide: true } }, () => app.swagger());
  app.get('/api/docs', { config: { auth: 'none' }, schema: { hide: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderDocs(app.swagger() as { info: { title: string }; paths?: Record<string, Record<string, Operation>> })));
}

type JsonSchema = Record<string, unknown>;
interface OpenApiDocument { paths?: Record<string, Record<string, unknown>>; [key: string]: unknown }

/** A zod schema as the other operations' JSON schemas are written (fastify-type-provider-zod, OpenAPI 3.0). */
function toJsonSchema(schema: z.ZodType, url: string): JsonSchema {
  try {
    const { schema: converted } = jsonSchemaTransform({ schema: { body: schema }, url, openapiObject: { openapi: '3.0.3' } } as never) as { schema: { body: JsonSchema } };
    return converted.body;
  } catch {
    return { type: 'object' };
  }
}

const binary = { type: 'string', format: 'binary' };

/** A download's answer is its file, in its media type (src/shared/schemas/responses.ts `download`), not JSON. */
function withDownloads(declared: Record<string, z.ZodType> | undefined, converted: Record<string, JsonSchema> | undefined) {
  if (!declared || !converted) return converted;
  return Object.fromEntries(Object.entries(converted).map(([status, schema]) => {
    const download = declared[status] && downloads.get(declared[status]);
    const mediaTypes = typeof download?.mediaType === 'string' ? [download.mediaType] : download?.mediaType ?? [];
    return [status, download ? { description: declared[status].description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: binary }])) } : schema];
  }));
}

/** A form's fields plus its files, for `multipart/form-data` (bracketed keys are accepted too, spec §7). */
function withFiles(schema: JsonSchema, files: Record<string, { isMultiple: boolean }>): JsonSchema {
  const properties = { ...(schema.properties as Record<string, unknown> | undefined) };
  for (const [key, { isMultiple }] of Object.entries(files)) properties[key] = isMultiple ? { type: 'array', items: binary } : binary;
  return { ...schema, type: 'object', properties };
}

/**
 * The body of a route that takes multipart/form-data: the time-sheet upload, and create / update of a
 * resource with file fields (which also take JSON). Undefined for every other route.
 */
function multipartBody(app: FastifyInstance, method: string, url: string): JsonSchema | undefined {
  if (method === 'POST' && url === '/api/time-sheet') {
    const form = withFiles(toJsonSchema(timeSheetUploadSchema, url), { file: { isMultiple: false } });
    return { content: { 'multipart/form-data': { schema: { ...form, required: [...((form.required as string[] | undefined) ?? []), 'file'] } } } };
  }
  // /api/{name}[/:id], or a partner-owned resource's /api/partner/{segment}[/:id].
  const match = /^\/api\/(partner\/)?([a-z-]+)(\/:id)?$/.exec(url);
  const isCreate = method === 'POST' && match && !match[3];
  const isUpdate = (method === 'PUT' || method === 'PATCH') && match?.[3];
  if (!match || (!isCreate && !isUpdate)) return undefined;
  const definition = registeredResources(app).find(({ definition: d }) => (match[1] ? d.owner?.segment : d.name) === match[2])?.definition;
  const files = definition ? fileFieldsOf(definition) : [];
  if (!definition || files.length === 0) return undefined;
  const json = toJsonSchema(method === 'PATCH' ? definition.updateSchema : definition.schema, url);
  const form = withFiles(json, Object.fromEntries(files.map(([key, field]) => [key, { isMultiple: !!field.file.isMultiple }])));
  return { content: { 'multipart/form-data': { schema: form }, 'application/json': { schema: json } } };
}

/**
 * Routes registered before the swagger plugin (the realtime plugin's) are missing from what it
 * collected: they are added here.
 */
function withEarlyRoutes(document: OpenApiDocument): OpenApiDocument {
  const url = '/api/broadcasting/auth';
  const body = toJsonSchema(broadcastingAuthBody, url);
  const json = (description: string, schema: JsonSchema) => ({ description, content: { 'application/json': { schema } } });
  const message = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
  return {
    ...document,
    paths: {
      ...document.paths,
      [url]: {
        post: {
          tags: ['Realtime'],
          summary: 'Sign a private-channel subscription (pusher-js channelAuthorization)',
          description: 'Needs an app or partner token. The caller\'s own private channels and its account type\'s announcement channel (private-announcement-alert for staff, private-partner-announcement-alert for partners) only.',
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: body }, 'application/json': { schema: body } } },
          responses: {
            200: json('The signature and the session it is bound to', toJsonSchema(broadcastingAuthAnswer, url)),
            401: json('No valid token', message),
            403: json('Not a channel of the caller', message),
            422: json('Malformed socket id or channel name', { type: 'object', properties: { message: { type: 'string' }, errors: { type: 'object' } } }),
          },
        },
        ...document.paths?.[url],
      },
    },
  };
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
