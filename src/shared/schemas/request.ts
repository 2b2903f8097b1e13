// Issue 25: the answers of a request's comment thread (GET / POST /api/request/{id}/comments).
import { z } from 'zod';
import { timestamp } from './responses';

/** A comment of the thread; the author is null once their account is gone. */
export const requestCommentView = z.object({
  id: z.number().int(),
  body: z.string(),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: timestamp,
});
