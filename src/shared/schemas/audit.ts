// The audit trail's list (issue 20): GET /api/audit-log and its CSV export take the same filters.
import { z } from 'zod';
import { calendarDate, idQuery } from '../resources/define';

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
export interface AuditChangeView {
  field: string;
  label: string;
  is_secret?: true;
  old?: unknown;
  new?: unknown;
  old_text?: string | null;
  new_text?: string | null;
}

/** An entry of GET /api/audit-log, and of a record's GET /api/{resource}/{id}/changes. */
export interface AuditEntryView {
  id: number;
  created_at: string;
  action: 'create' | 'update' | 'delete' | 'transition';
  resource: string;
  resource_label: string;
  record_id: number | null;
  record_title: string | null;
  transition: string | null;
  actor: { type: 'app' | 'partner'; id: number | null; name: string | null } | null;
  /** The entry as a sentence: "Maria Manager changed the amount of expense 12 from EUR 20.00 to EUR 9,000.00." */
  summary: string;
  changes: AuditChangeView[];
}
