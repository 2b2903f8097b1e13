// The announcement shown as the marquee banner (spec §1): stored as the `announcement` setting.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema/settings';
import type { Announcement } from '../../../shared/schemas/auth';

const KEY = 'announcement';
export const defaultAnnouncement: Announcement = { status: 'off', message: '' };

export async function getAnnouncement(db: Db): Promise<Announcement> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY)).limit(1);
  return (row?.value as Announcement | undefined) ?? defaultAnnouncement;
}

export async function saveAnnouncement(db: Db, announcement: Announcement): Promise<Announcement> {
  await db.insert(settings).values({ key: KEY, value: announcement })
    .onConflictDoUpdate({ target: settings.key, set: { value: announcement, updated_at: new Date() } });
  return announcement;
}
