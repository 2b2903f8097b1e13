// The firm's working week (issue 22): which weekdays are working days, stored as the `working_week`
// setting (weekday names in week order); never saved, Monday to Friday. Read when working days are
// counted (workingCalendarFor), so every node follows a change at once.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema/settings';
import { DEFAULT_WORKING_WEEK, type WorkingWeekSetting, workingWeekSettingSchema } from '../../../shared/working-week';

const KEY = 'working_week';

export async function getWorkingWeekSetting(db: Db): Promise<WorkingWeekSetting> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).limit(1);
  const stored = workingWeekSettingSchema.safeParse({ working_week: row?.value });
  return stored.success ? stored.data : { working_week: [...DEFAULT_WORKING_WEEK] };
}

export async function saveWorkingWeekSetting(db: Db, setting: WorkingWeekSetting): Promise<WorkingWeekSetting> {
  await db.insert(settings).values({ key: KEY, value: setting.working_week })
    .onConflictDoUpdate({ target: settings.key, set: { value: setting.working_week, updated_at: new Date() } });
  return setting;
}
