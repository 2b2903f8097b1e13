// GET /api/{name}/{id}/attachments/{attachmentId}: a file of a record, through the resource's scope.
import { z } from 'zod';
import { idQuery } from '../../../shared/resources/define';
import { sendAttachment } from '../attachments';
import { findRow } from '../queries';
import { contextOf } from '../types';
import { fileDownload } from '../../../shared/schemas/responses';
import type { Served } from './served';
import { inSentence, withArticle } from '../../../shared/words';

export function fileRoute({ app, resource, area, base, permissions, tags }: Served) {
  const { definition } = resource;
  app.get(`${base}/:id/attachments/:attachmentId`, {
    config: { auth: area, permission: permissions.view },
    schema: {
      tags, summary: `Download a file of ${withArticle(inSentence(definition.label))}`,
      params: z.object({ id: idQuery(), attachmentId: idQuery() }),
      querystring: z.object({ disposition: z.enum(['attachment', 'inline']).optional() }),
      response: { 200: fileDownload },
    },
  }, async (request, reply) => {
    const ctx = contextOf(request);
    await findRow(resource, ctx, request.params.id);
    return sendAttachment(reply, ctx.db, definition, request.params.id, request.params.attachmentId, request.query.disposition ?? 'attachment');
  });
}
