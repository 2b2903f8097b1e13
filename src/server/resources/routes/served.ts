// What each route file of a resource is given (register.ts serves a resource once per area), and the
// pieces they share: the id parameter, a write's transaction and the body of a create or update.
import type {
  FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { issuesError } from '../../plugins/errors';
import { idQuery, type ResourcePermissions } from '../../../shared/resources/define';
import { discardNewFiles, type FileInput, fileFieldsOf } from '../attachments';
import { readMultipart, replayedMultipart } from '../multipart';
import type { ResourceResponses } from '../../../shared/schemas/resource';
import { type Area, type Input, inWrite, type RegisteredResource } from '../types';

/** The app with zod schemas typing each route's params, query and body. */
export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

export interface Served {
  app: ZodApp;
  resource: RegisteredResource;
  area: Area;
  /** `/{name}`, or the partner portal's `/partner/{segment}`. */
  base: string;
  permissions: ResourcePermissions;
  tags: string[];
  /**
   * The answers of its routes, derived from the definition (src/shared/schemas/resource.ts). Typed as
   * any schema here: the machinery's rows are untyped records, and the test app checks them at run time.
   */
  responses: ResourceResponses;
}

export const idParams = z.object({ id: idQuery() });

/** Runs a write in one transaction with the context's handle switched to it. */
export const write = inWrite;

export const hasFiles = (resource: RegisteredResource) => fileFieldsOf(resource.definition).length > 0;

/**
 * JSON bodies are validated by the route; a definition with files validates in readBody (multipart
 * has no JSON body), and its route documents the schema beside "anything" so the docs still show it.
 */
export const bodySchema = (resource: RegisteredResource, schema: z.ZodType) => (hasFiles(resource) ? z.union([schema, z.unknown()]) : schema);

/**
 * The body as JSON (validated by the route's schema) or, for definitions with file fields, JSON or
 * multipart: then validated here with the same schema, its errors under the keys a JSON body's get.
 */
export async function readBody(resource: RegisteredResource, request: FastifyRequest, reply: FastifyReply, schema: z.ZodType): Promise<{ input: Input; files: FileInput | null } | null> {
  if (!hasFiles(resource)) return { input: request.body as Input, files: null };
  let values: unknown = request.body;
  let files: FileInput | null = null;
  if (request.isMultipart()) {
    ({ values, files } = await readMultipart(request, resource.definition));
    // A retried outbox item (issue 26): null once the first answer has been replayed.
    if (await replayedMultipart(request, reply, values as Input, files)) return null;
  }
  const parsed = schema.safeParse(values ?? {});
  if (!parsed.success) {
    await discardNewFiles(request, files);
    throw issuesError(parsed.error.issues);
  }
  return { input: parsed.data as Input, files };
}
