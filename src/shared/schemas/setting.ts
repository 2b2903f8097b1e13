import { z } from 'zod';
import type { Announcement } from './auth';
import { isTimeZone } from '../dates';
import { weekdays } from '../working-week';

/** Who an announcement is for (issue 20): the firm's own people, the partner firms' logins, or both. */
export const announcementAudiences = ['staff', 'partners', 'both'] as const;
export type AnnouncementAudience = (typeof announcementAudiences)[number];

/** How the settings form names each audience. */
export const announcementAudienceOptions: { value: AnnouncementAudience; label: string }[] = [
  { value: 'staff', label: 'Staff only' },
  { value: 'partners', label: 'Partners only' },
  { value: 'both', label: 'Staff and partners' },
];

/** The announcement banner (spec §1): shown while status is on, to its audience (staff unless told otherwise). */
export const announcementSchema = z.object({
  status: z.enum(['on', 'off']),
  message: z.string().trim().max(500, 'The message may not be greater than 500 characters.'),
  audience: z.enum(announcementAudiences, { error: 'Choose who the announcement is for.' }).default('staff'),
}).refine((value) => value.status === 'off' || value.message.length > 0, {
  path: ['message'], message: 'The message field is required when the announcement is on.',
});

/** The stored announcement with its audience, as the settings screen edits it. */
export type AnnouncementSetting = z.output<typeof announcementSchema>;

/** Whether an account of this type is in the audience. */
export const isForAccount = (audience: AnnouncementAudience, account: 'app' | 'partner') =>
  audience === 'both' || audience === (account === 'app' ? 'staff' : 'partners');

/** What one account type's banner shows of the setting: nothing (off) when the announcement is not for it. */
export function announcementFor(setting: AnnouncementSetting, account: 'app' | 'partner'): Announcement {
  return isForAccount(setting.audience, account) ? { status: setting.status, message: setting.message } : { status: 'off', message: '' };
}
/** The firm's time zone (issue 21): an IANA name such as Europe/London, the zone of every "today". */
export const timeZoneSettingSchema = z.object({
  time_zone: z.string({ error: 'The time zone field is required.' }).trim().min(1, 'The time zone field is required.')
    .refine(isTimeZone, 'The time zone must be a name such as Europe/London or America/New_York.'),
});

/** GET /setting/time-zone: the zone in force, the one it falls back to, and the firm's today in it. */
export const timeZoneSettingView = z.object({ time_zone: z.string(), default_time_zone: z.string(), today: z.string() });
export type TimeZoneSetting = z.infer<typeof timeZoneSettingView>;

/** The stored announcement as GET / PUT /setting/announcement answer it. */
export const announcementSettingView = z.object({ status: z.enum(['on', 'off']), message: z.string(), audience: z.enum(announcementAudiences) });
/** GET / PUT /setting/expense. */
export const expenseSettingView = z.object({ receipt_threshold: z.number() });
/** GET / PUT /setting/working-week: the working weekdays, Monday first. */
export const workingWeekSettingView = z.object({ working_week: z.array(z.enum(weekdays)) });
