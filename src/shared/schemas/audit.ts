// The audit trail's list (issue 20): GET /api/audit-log and its CSV export take the same filters.
import { z } from 'zod';
import { calendarDate, idQuery } from '../resources/define';
import { pageMetaSchema } from './responses';

const date = calendarDate('The date must be a real date in the format YYYY-MM-DD.');

export const AUDIT_ACTIONS = [
  { value: 'create', label: 'Created' },
  { value: 'update', label: 'Edited' },
  { value: 'transition', label: 'Status changed' },
  { value: 'delete', label: 'Deleted' },
] as const;

export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional(),
  // Capped at MAX_PER_PAGE by the server rather than refused, as the other lists do.
  per_page: z.coerce.number().int().min(1).optional(),
  /** The person who made the change: an app user's id (actor_type app) or a partner login's. */
  actor_id: idQuery().optional(),
  actor_type: z.enum(['app', 'partner']).optional(),
  resource: z.string().regex(/^[a-z0-9-]{1,60}$/, 'The selected resource is invalid.').optional(),
  record_id: idQuery().optional(),
  action: z.enum(AUDIT_ACTIONS.map((a) => a.value) as unknown as ['create', 'update', 'transition', 'delete']).optional(),
  created_at_from: date.optional(),
  created_at_to: date.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** One change of an entry as the API sends it; a secret has no values. */
export const auditChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  is_secret: z.literal(true).optional(),
  old: z.unknown().optional(),
  new: z.unknown().optional(),
  old_text: z.string().nullable().optional(),
  new_text: z.string().nullable().optional(),
});
export type AuditChangeView = z.infer<typeof auditChangeSchema>;

/** An entry of GET /api/audit-log, and of a record's GET /api/{resource}/{id}/changes. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  action: z.enum(['create', 'update', 'delete', 'transition']),
  resource: z.string(),
  resource_label: z.string(),
  record_id: z.number().int().nullable(),
  record_title: z.string().nullable(),
  transition: z.string().nullable(),
  actor: z.object({ type: z.enum(['app', 'partner']), id: z.number().int().nullable(), name: z.string().nullable() }).nullable(),
  /** The entry as a sentence: "Maria Manager changed the amount of expense 12 from EUR 20.00 to EUR 9,000.00." */
  summary: z.string(),
  changes: z.array(auditChangeSchema),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/** GET /api/audit-log: a page of entries; past a cap the total is an estimate that says so. */
export const auditPageResponse = z.object({
  data: z.array(auditEntrySchema),
  meta: pageMetaSchema.extend({ is_total_capped: z.boolean() }),
});
export type AuditPage = z.infer<typeof auditPageResponse>;
