// GET /api/{name}/{id}, and its edits from the audit trail for the History tab (issue 20).
import { recordEdits } from '../../modules/audit/service';
import { findRow } from '../queries';
import { withDecisionNote } from '../workflow';
import { contextOf } from '../types';
import { idParams, type Served } from './served';
import { inSentence, withArticle } from '../../../shared/words';

export function showRoutes({ app, resource, area, base, permissions, tags, responses }: Served) {
  const { definition } = resource;
  const label = inSentence(definition.label);
  app.get(`${base}/:id`, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `Show ${withArticle(label)}`, params: idParams, response: { 200: responses.show } },
  }, async (request) => {
    const ctx = contextOf(request);
    // Its own page reads why the record is where it is (decision 063); lists leave it to the history.
    return { data: await withDecisionNote(ctx.db, definition, await findRow(resource, ctx, request.params.id)) };
  });

  // To whoever may view the record; the portal's screens show its workflow history only.
  if (area !== 'app') return;
  app.get(`${base}/:id/changes`, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `Edits of ${withArticle(label)}, oldest first`, params: idParams, response: { 200: responses.changes } },
  }, async (request) => {
    const ctx = contextOf(request);
    await findRow(resource, ctx, request.params.id);
    return { data: await recordEdits(ctx.db, definition.name, request.params.id) };
  });
}
