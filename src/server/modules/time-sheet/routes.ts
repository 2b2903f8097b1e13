// Time sheets: the generic list / detail / export and the review workflow from the shared
// definition (scoped per account), plus upload (multipart) and file download.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { timeSheets } from '../../db/schema/time-sheets';
import { requireAccount, type Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { claimIdempotency, replay, type StoredAnswer } from '../../plugins/idempotency';
import { contentDisposition } from '../../lib/content-disposition';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { fileDownload, savedResponse } from '../../../shared/schemas/responses';
import { uploadedTimeSheetSchema } from '../../../shared/schemas/time-sheet';
import { timeSheet, TIME_SHEET_UPLOAD_PERMISSION, TIME_SHEET_WITHDRAW } from '../../../shared/resources/time-sheet';
import { markUploadNoticeRead, readTimeSheetUpload, saveTimeSheet, timeSheetScope } from './service';

const idParams = z.object({ id: idQuery() });

export function registerTimeSheetRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  registerResource(parent, {
    definition: timeSheet,
    table: timeSheets,
    hidden: ['file_key'],
    scope: ({ app: host, account }) => timeSheetScope(host, account),
    // A review names its reviewer and keeps its comment on the sheet; the engineer's withdrawal is no review
    // (its comment, if any, stays in the history and the manager's notice).
    transitionColumns: (transition, comment, account) => (transition.name === TIME_SHEET_WITHDRAW ? {} : { comment, reviewed_by: account.id, reviewed_at: new Date() }),
    transitionWrites: markUploadNoticeRead,
  });

  /** The sheet if the account may see it; fetched with the scope in the query, never compared after. */
  const findVisible = async (account: Account, id: number) => {
    const [row] = await parent.db.select().from(timeSheets).where(and(eq(timeSheets.id, id), timeSheetScope(parent, account))).limit(1);
    if (!row) throw new HttpError(404, 'Time sheet not found.');
    return row;
  };

  app.post('/time-sheet', {
    config: { auth: 'app', permission: TIME_SHEET_UPLOAD_PERMISSION },
    schema: { response: { 201: savedResponse(uploadedTimeSheetSchema) } },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new HttpError(415, 'Send the time sheet as multipart/form-data.');
    const upload = await readTimeSheetUpload(parent, request.parts());
    // A retried outbox item replays the first answer, a reused key is refused: either way this copy of the file goes.
    let answered: StoredAnswer | null | undefined;
    try {
      answered = await claimIdempotency(request, upload.digest);
    } finally {
      if (answered !== null) await parent.storage.remove(upload.file.key);
    }
    if (answered) return replay(reply, answered);
    const row = await saveTimeSheet(contextOf(request), upload);
    const { file_key: _hidden, ...stored } = row;
    const data = { ...stored, reviewed_at: stored.reviewed_at?.toISOString() ?? null, created_at: stored.created_at.toISOString(), updated_at: stored.updated_at.toISOString() };
    return reply.status(201).send({ data, message: 'Time sheet uploaded successfully.' });
  });

  app.get('/time-sheet/:id/file', {
    config: { auth: 'app', permission: timeSheet.permissions.view },
    schema: { params: idParams, response: { 200: fileDownload } },
  }, async (request, reply) => {
    const sheet = await findVisible(requireAccount(request), request.params.id);
    return reply
      // Sheets uploaded before the type was sniffed carry what the browser claimed: only a well-formed one is repeated.
      .type(/^[\w.+-]+\/[\w.+-]+(; ?charset=[\w-]+)?$/.test(sheet.file_mime) ? sheet.file_mime : 'application/octet-stream')
      .header('Content-Disposition', contentDisposition('attachment', sheet.file_name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(parent.storage.read(sheet.file_key));
  });
}
