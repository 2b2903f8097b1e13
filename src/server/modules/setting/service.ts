// The settings screen's services (decision 040): each takes the caller's context and saves a setting
// with its audit entry in one transaction (issue 20). The readers below them keep a handle, as the
// expense claims, the leave calendar and the public firm profile read them without a caller.
import { inWrite, type ResourceContext } from '../../resources/types';
import { plainChanges, recordChange } from '../../resources/audit';
import { announcementAudienceOptions, type AnnouncementSetting } from '../../../shared/schemas/setting';
import type { ExpenseSetting } from '../../../shared/resources/expense';
import type { FirmProfileInput } from '../../../shared/schemas/setup';
import { describeWorkingWeek, type WorkingWeekSetting } from '../../../shared/working-week';
import { getAnnouncementSetting, saveAnnouncement } from './announcement';
import { getExpenseSetting, saveExpenseSetting } from './expense-setting';
import { getFirmProfile, saveFirmProfile } from './firm-profile';
import { applyTimeZone, getTimeZoneSetting, storeTimeZone } from './time-zone';
import { getWorkingWeekSetting, saveWorkingWeekSetting } from './working-week';

/** Called after the announcement changes (the realtime layer tells each audience what is now for it). */
export type AnnouncementListener = (announcement: AnnouncementSetting, previous: AnnouncementSetting) => Promise<void> | void;

const settingChange = (ctx: ResourceContext, title: string, changes: Parameters<typeof recordChange>[1]['changes']) =>
  recordChange(ctx.db, { account: ctx.account, action: 'update', resource: 'setting', recordId: null, title, changes });

/** The announcement's changes, its audience read as the form names it ("Staff only", not "staff"). */
function announcementChanges(before: AnnouncementSetting, after: AnnouncementSetting) {
  const label = (value: unknown) => announcementAudienceOptions.find((option) => option.value === value)?.label ?? null;
  return plainChanges(before, after).map((change) => (change.field === 'audience' ? { ...change, old_text: label(change.old), new_text: label(change.new) } : change));
}

export const announcementSetting = (ctx: ResourceContext) => getAnnouncementSetting(ctx.db);

/** Saves the announcement; `onChange` hears of it once committed. */
export async function updateAnnouncement(ctx: ResourceContext, input: AnnouncementSetting, onChange?: AnnouncementListener): Promise<AnnouncementSetting> {
  const { saved, previous } = await inWrite(ctx, async (write) => {
    const result = await saveAnnouncement(write.db, input);
    await settingChange(write, 'Announcement', announcementChanges(result.previous, result.saved));
    return result;
  });
  await onChange?.(saved, previous);
  return saved;
}

export const expenseSetting = (ctx: ResourceContext) => getExpenseSetting(ctx.db);

export function updateExpenseSetting(ctx: ResourceContext, input: ExpenseSetting): Promise<ExpenseSetting> {
  return inWrite(ctx, async (write) => {
    const before = await getExpenseSetting(write.db);
    const saved = await saveExpenseSetting(write.db, input);
    await settingChange(write, 'Expense', plainChanges(before, saved));
    return saved;
  });
}

export const firmProfile = (ctx: ResourceContext) => getFirmProfile(ctx.db);

export function updateFirmProfile(ctx: ResourceContext, input: FirmProfileInput) {
  return inWrite(ctx, async (write) => {
    const { before, after } = await saveFirmProfile(write.db, input);
    await settingChange(write, 'Firm profile',
      plainChanges({ name: before.name, default_currency: before.default_currency }, { name: after.name, default_currency: after.default_currency }));
    return after;
  });
}

export const timeZoneSetting = (ctx: ResourceContext) => getTimeZoneSetting(ctx.app, ctx.db);

/** Saves the zone with its audit entry, then applies it on this node (the others follow within a minute). */
export async function updateTimeZone(ctx: ResourceContext, zone: string) {
  await inWrite(ctx, async (write) => {
    const before = await getTimeZoneSetting(write.app, write.db);
    await storeTimeZone(write.db, zone);
    await settingChange(write, 'Time zone', plainChanges({ time_zone: before.time_zone }, { time_zone: zone }));
  });
  return applyTimeZone(ctx.app, zone);
}

export const workingWeekSetting = (ctx: ResourceContext) => getWorkingWeekSetting(ctx.db);

/** Which weekdays are working days (issue 22); a leave's length and the leave calendar follow it at once. */
export function updateWorkingWeek(ctx: ResourceContext, input: WorkingWeekSetting): Promise<WorkingWeekSetting> {
  return inWrite(ctx, async (write) => {
    const before = await getWorkingWeekSetting(write.db);
    const saved = await saveWorkingWeekSetting(write.db, input);
    await settingChange(write, 'Working week', before.working_week.join() === saved.working_week.join() ? [] : [{
      field: 'working_week', old: before.working_week, new: saved.working_week,
      old_text: describeWorkingWeek(before.working_week), new_text: describeWorkingWeek(saved.working_week),
    }]);
    return saved;
  });
}
