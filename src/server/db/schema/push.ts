// Web Push (issue 29): the devices a person opted in on, and which notification went to which device.
// A subscription is the browser's (its push service's endpoint and the keys that encrypt for it); a
// delivery row makes the send idempotent per (notification, subscription), whichever node runs the job.
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { accountTypes, personalAccessTokens } from './accounts';
import { notifications } from './notifications';

export const pushSubscriptions = pgTable('push_subscriptions', {
  id: serial('id').primaryKey(),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  /**
   * The session that opted this browser in (decision 045). A subscription is the browser's, but the
   * notifications it carries are the signed-in person's: once that session ends (signed out here,
   * signed out from elsewhere, a password change or reset, the account deactivated, an admin's
   * second-factor reset) the row goes with its token, so a phone nobody is signed in on no longer shows
   * someone's notifications on its lock screen. The client's own sign-out cannot reach a device that was
   * signed out from elsewhere or lost; this can. Rows made before sessions were tied to it were deleted
   * (migration 0039): the same person's browser registers again on its next sign-in.
   */
  token_id: integer('token_id').notNull().references(() => personalAccessTokens.id, { onDelete: 'cascade' }),
  /** The push service's URL for this browser (RFC 8030); a capability, never shown back in full. */
  endpoint: text('endpoint').notNull(),
  /** The browser's P-256 public key and auth secret (RFC 8291), base64url. */
  p256dh: varchar('p256dh', { length: 200 }).notNull(),
  auth: varchar('auth', { length: 100 }).notNull(),
  /** The browser's user agent when it opted in, from which the list names the device. */
  user_agent: varchar('user_agent', { length: 500 }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The last push the push service accepted for it. */
  last_used_at: timestamp('last_used_at', { withTimezone: true }),
}, (t) => [
  // One browser may be opted in by a staff login and a partner login alike (the auth state is per account type).
  uniqueIndex('push_subscriptions_account_endpoint').on(t.account_type, t.account_id, t.endpoint),
  index('push_subscriptions_account').on(t.account_type, t.account_id),
  // Deleting a token (every sign-out) looks its subscriptions up by it.
  index('push_subscriptions_token').on(t.token_id),
]);

export const pushDeliveries = pgTable('push_deliveries', {
  notification_id: uuid('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
  subscription_id: integer('subscription_id').notNull().references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
  /**
   * The notification's time when it was pushed: a coalesced notification (decision 020) is updated with a
   * new time and pushed again, once, while a retried or repeated job sends nothing twice.
   */
  sent_for: timestamp('sent_for', { withTimezone: true }).notNull(),
}, (t) => [primaryKey({ columns: [t.notification_id, t.subscription_id] })]);
