// Answers of the time-sheet routes beside the generic ones (src/server/modules/time-sheet/routes.ts).
import { z } from 'zod';
import { timestamp } from './responses';
import { timeSheet } from '../resources/time-sheet';

const states = Object.keys(timeSheet.workflow!.states) as [string, ...string[]];

/** POST /api/time-sheet: the sheet as stored (never its storage key). */
export const uploadedTimeSheetSchema = z.object({
  id: z.number().int(), user_id: z.number().int(), client_id: z.number().int(),
  period_type: z.enum(['month', 'week']), period_start: z.string(), period_end: z.string(), hours: z.number(), note: z.string().nullable(),
  file_name: z.string(), file_size: z.number().int(), file_mime: z.string(),
  status: z.enum(states), comment: z.string().nullable(), reviewed_by: z.number().int().nullable(), reviewed_at: timestamp.nullable(),
  created_at: timestamp, updated_at: timestamp,
});

