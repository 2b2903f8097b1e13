// GET /api/dashboard/mine (issue 28): an engineer's home in one answer: their leave balances, how
// their own leave, claims, time sheets and requests stand and what each waits for, and their
// documents to read or return. A part the caller may not open is null, not empty.
import { z } from 'zod';


export const homeItemSchema = z.object({
  resource: z.enum(['leave-application', 'expense', 'time-sheet', 'request']),
  id: z.number().int(),
  /** What it is, as its owner calls it: "Leave on 4–5 March 2030", "Taxi to the client · EUR 20.00". */
  title: z.string(),
  status: z.string(),
  status_label: z.string(),
  tone: z.string(),
  /** Whom it waits for, said to its owner ("Waits for your manager"); null once nothing more happens. */
  waits_for: z.string().nullable(),
  created_at: z.string(),
});
export type HomeItem = z.infer<typeof homeItemSchema>;

export const homeSchema = z.object({
  leave_balances: z.object({
    year: z.number().int(),
    items: z.array(z.object({
      leave_type_id: z.number().int(), name: z.string(), allowance: z.number().nullable(), used: z.number(), pending: z.number(), remaining: z.number().nullable(),
    })),
  }).nullable(),
  /** Open ones and those decided in the last 30 days, newest first, per kind at most 5. */
  items: z.array(homeItemSchema),
  documents: z.object({ to_read: z.number().int(), to_return_again: z.number().int() }).nullable(),
});
export type Home = z.infer<typeof homeSchema>;
export const homeResponse = z.object({ data: homeSchema });
