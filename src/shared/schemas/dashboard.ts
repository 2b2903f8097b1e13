// GET /api/dashboard and GET /api/partner/dashboard (issue 13): what the server sends, and so what
// the dashboard screens read (their types are inferred from these). A panel the caller may not see is
// left out, not sent empty: every panel is optional.
import { z } from 'zod';

const query = z.record(z.string(), z.string());
const tone = z.enum(['red', 'yellow', 'green', 'gray']);

/**
 * One line of "Waiting for you": a count and the filtered list it comes from, named by the list
 * ("Expenses") over where its records stand ("Waiting for finance to approve").
 */
export const waitingItemSchema = z.object({ key: z.string(), label: z.string(), detail: z.string().optional(), count: z.number().int(), resource: z.string(), query });
export type WaitingItem = z.infer<typeof waitingItemSchema>;

/** A figure per value of a field (candidates by stage, requests by status), every value in order, zeros too. */
export const breakdownSchema = z.object({
  key: z.string(), title: z.string(), description: z.string().optional(), resource: z.string(), field: z.string(),
  items: z.array(z.object({ value: z.string(), label: z.string(), count: z.number().int(), query })),
});
export type Breakdown = z.infer<typeof breakdownSchema>;

/** A panel of a few records (what expires, what is overdue) and the filtered list holding all of them. */
export const dashboardListSchema = z.object({
  key: z.string(), title: z.string(), description: z.string().optional(), empty: z.string(),
  items: z.array(z.object({
    id: z.number().int(), title: z.string(), detail: z.string().optional(), date: z.string().nullable().optional(),
    badge: z.object({ label: z.string(), tone }).nullable().optional(), resource: z.string(),
  })),
  /** All of them, in the list they come from. */
  all: z.object({ count: z.number().int(), resource: z.string(), query, label: z.string().optional() }).optional(),
});
export type DashboardList = z.infer<typeof dashboardListSchema>;

export const pipelineAmountSchema = z.object({ currency: z.string(), value: z.number(), weighted: z.number() });
/** The weighted deal pipeline (deal-tracking), with the list it links to. */
export const pipelineSchema = z.object({
  resource: z.string(),
  by_stage: z.array(z.object({ stage: z.string(), probability: z.number(), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
  by_owner: z.array(z.object({ owner: z.object({ id: z.number().int(), name: z.string() }), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
  lost_reasons: z.array(z.object({ reason: z.string(), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
});

/**
 * The main application's dashboard: the figure cards (a count per key the caller may open: admins,
 * managers, users, active_users, open_positions, unread_notifications) and the panels.
 */
export const appDashboardSchema = z.looseObject({
  unread_notifications: z.number().int(),
  admins: z.number().int().optional(),
  managers: z.number().int().optional(),
  users: z.number().int().optional(),
  active_users: z.number().int().optional(),
  open_positions: z.number().int().optional(),
  waiting: z.array(waitingItemSchema).optional(),
  lists: z.array(dashboardListSchema).optional(),
  breakdowns: z.array(breakdownSchema).optional(),
  pipeline: pipelineSchema.nullable().optional(),
  invoices_awaiting_payment: z.object({
    count: z.number().int(), totals: z.array(z.object({ currency: z.string(), amount: z.number() })), resource: z.string(), query,
  }).nullable().optional(),
});
export type AppDashboard = z.infer<typeof appDashboardSchema>;

/** A partner firm's amounts of one currency this calendar year, net or gross (issue 21). */
export const partnerYearAmountsSchema = z.object({
  currency: z.string(), submitted_net: z.number(), approved_net: z.number(), invoiced_net: z.number(), invoiced_gross: z.number(),
  paid_gross: z.number(), outstanding_gross: z.number(),
});

export const partnerDashboardSchema = z.object({
  unread_notifications: z.number().int(),
  /** Sent back to the partner: rejected, to correct and resubmit. */
  to_correct: z.object({ pre_billings: z.number().int(), invoices: z.number().int().nullable() }),
  year: z.number().int(),
  amounts: z.array(partnerYearAmountsSchema),
  /** `title`: the statement's month (YYYY-MM-DD) or the invoice's number, as the partner knows them. */
  recent: z.array(z.object({
    resource: z.enum(['pre-billing', 'partner-invoice']), record_id: z.number().int(), title: z.string().nullable(), transition: z.string(),
    to: z.string(), actor: z.string().nullable(), comment: z.string().nullable(), created_at: z.string(),
  })),
});
export type PartnerDashboardData = z.infer<typeof partnerDashboardSchema>;

export const appDashboardResponse = z.object({ data: appDashboardSchema });
export const partnerDashboardResponse = z.object({ data: partnerDashboardSchema });
