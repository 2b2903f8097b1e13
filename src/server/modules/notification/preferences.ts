// Each person's choice of how they hear of each kind of notification (issue 24): in the app, by
// email, both or not at all, and whether mail comes as a daily digest. notify.ts reads them.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationPreferences } from '../../db/schema/notifications';
import type { Account } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import { kindsFor, type NotificationChannel, type NotificationPreferences } from '../../../shared/notification-kinds';

/**
 * The caller's choices for every kind they may receive. A kind they never chose shows 'app': what it
 * does for most of its notifications (the few decisions someone waits for are also mailed until they choose).
 */
export async function preferencesFor(db: Db, account: Account): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences)
    .where(and(eq(notificationPreferences.account_type, account.type), eq(notificationPreferences.account_id, account.id))).limit(1);
  const channels: Record<string, NotificationChannel> = {};
  for (const kind of kindsFor(account.type)) channels[kind.key] = row?.channels[kind.key] ?? 'app';
  return { channels, is_digest: row?.is_digest ?? false };
}

/** Saves the caller's choices (only kinds their account type receives); answers them as stored. */
export async function savePreferences(db: Db, account: Account, input: NotificationPreferences): Promise<NotificationPreferences> {
  const known = new Set(kindsFor(account.type).map((kind) => kind.key));
  const unknown = Object.keys(input.channels).filter((key) => !known.has(key));
  if (unknown.length) throw validationError({ channels: `There is no kind of notification called ${unknown[0].slice(0, 60)} for you.` });
  const values = { channels: input.channels, is_digest: input.is_digest, updated_at: new Date() };
  await db.insert(notificationPreferences).values({ account_type: account.type, account_id: account.id, ...values })
    .onConflictDoUpdate({ target: [notificationPreferences.account_type, notificationPreferences.account_id], set: values });
  return preferencesFor(db, account);
}
