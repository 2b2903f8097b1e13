// The announcement shown as the marquee banner (spec §1): stored as the `announcement` setting, with
// the audience it is for (issue 20). Each account type reads only what is for it. The login and /me
// answers take it from this node's copy (setting-cache.ts, decision 053); the settings screen reads
// the stored row.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AccountType } from '../../db/schema/accounts';
import { settings } from '../../db/schema/settings';
import type { Announcement } from '../../../shared/schemas/auth';
import { announcementAudiences, announcementFor, type AnnouncementSetting } from '../../../shared/schemas/setting';
import { announceSettingChanged, type SettingCache } from './setting-cache';

export const ANNOUNCEMENT_KEY = 'announcement';
export const defaultAnnouncement: AnnouncementSetting = { status: 'off', message: '', audience: 'staff' };

/** The stored setting; one saved before audiences existed is for staff, as a new one is by default. */
export async function getAnnouncementSetting(db: Db): Promise<AnnouncementSetting> {
  const [row] = await db.select().from(settings).where(eq(settings.key, ANNOUNCEMENT_KEY)).limit(1);
  const stored = row?.value as Partial<AnnouncementSetting> | undefined;
  if (!stored) return defaultAnnouncement;
  const audience = announcementAudiences.includes(stored.audience as AnnouncementSetting['audience']) ? stored.audience! : 'staff';
  return { status: stored.status === 'on' ? 'on' : 'off', message: stored.message ?? '', audience };
}

/**
 * What the banner of an account of this type shows, from this node's copy of the setting: no statement
 * and no promise while it holds one, a single read when it does not (the first request, or the first
 * after a change).
 */
export function nodeAnnouncement(app: { db: Db; nodeSettings: SettingCache }, account: AccountType): Announcement | Promise<Announcement> {
  const setting = app.nodeSettings.read(ANNOUNCEMENT_KEY, () => getAnnouncementSetting(app.db));
  return setting instanceof Promise ? setting.then((read) => announcementFor(read, account)) : announcementFor(setting, account);
}

/**
 * Saves the setting and returns it with the one it replaced (whose audience may need its banner
 * cleared). `db` is the saving transaction: every node drops its copy when it commits.
 */
export async function saveAnnouncement(db: Db, announcement: AnnouncementSetting): Promise<{ saved: AnnouncementSetting; previous: AnnouncementSetting }> {
  const previous = await getAnnouncementSetting(db);
  await db.insert(settings).values({ key: ANNOUNCEMENT_KEY, value: announcement })
    .onConflictDoUpdate({ target: settings.key, set: { value: announcement, updated_at: new Date() } });
  await announceSettingChanged(db, ANNOUNCEMENT_KEY);
  return { saved: announcement, previous };
}
