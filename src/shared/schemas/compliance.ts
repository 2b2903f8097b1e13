// Issue 25: the answers of the compliance routes beside the generic ones
// (src/server/modules/compliance/routes.ts): assigning documents, returning a signed copy, and a
// person's compliance. The screens' types are inferred from these.
import { z } from 'zod';

/** POST /api/document-assign: what the assignment did. */
export const assignDocumentResultSchema = z.object({
  assigned: z.number().int(),
  people: z.number().int(),
  /** People who already had these documents open. */
  skipped: z.number().int(),
});

/** POST /api/document-assign-history/{id}/return: the assignment waits for review; the header icon follows `doc_assigned`. */
export const returnedCopySchema = z.object({ id: z.number().int(), status: z.literal('submitted'), doc_assigned: z.boolean() });

/** GET /api/compliance/{id}: spec §5's badge over a person's own documents and their assignments. */
export const personComplianceSchema = z.object({
  status: z.enum(['valid', 'expired', 'nothing-assigned']),
  /** The day the rule was applied (the firm's today). */
  today: z.string(),
  documents: z.array(z.object({ id: z.number().int(), title: z.string(), document_type: z.string(), expiry_date: z.string().nullable() })),
  assignments: z.array(z.object({
    id: z.number().int(), document_title: z.string(), status: z.string(), due_date: z.string(), expiry_date: z.string().nullable(),
  })),
});
export type PersonComplianceView = z.infer<typeof personComplianceSchema>;
export type ReturnedCopy = z.infer<typeof returnedCopySchema>;
