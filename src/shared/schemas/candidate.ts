// Issue 25: the answers of the candidate form links (the recruiter's side) and of the public
// candidate form (src/server/modules/candidate/routes.ts). The screens' types are inferred from these.
import { z } from 'zod';
import { timestamp } from './responses';

/** GET /api/candidate/form-links: one link, without its token (shown once, when it is made). */
export const candidateFormLinkView = z.object({
  id: z.number().int(),
  position_id: z.number().int(),
  expires_at: timestamp,
  /** 1 for a single-use link, null for a link any number of candidates may use. */
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  revoked_at: timestamp.nullable(),
  created_at: timestamp,
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});

/** POST /api/candidate/form-links: the new link, its token and address shown this once. */
export const createdCandidateFormLink = z.object({
  id: z.number().int(),
  token: z.string(),
  path: z.string(),
  url: z.string(),
  expires_at: timestamp,
  max_uses: z.number().int().nullable(),
});

/** GET /api/public/candidate-form/{token}: what the candidate sees of the position. */
export const publicCandidateFormView = z.object({
  position: z.object({ title: z.string(), location: z.string() }),
  expires_at: timestamp,
});
