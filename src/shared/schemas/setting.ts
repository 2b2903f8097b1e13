import { z } from 'zod';
import { isTimeZone } from '../dates';

/** The announcement banner (spec §1): shown while status is on. */
export const announcementSchema = z.object({
  status: z.enum(['on', 'off']),
  message: z.string().trim().max(500, 'The message may not be greater than 500 characters.'),
}).refine((value) => value.status === 'off' || value.message.length > 0, {
  path: ['message'], message: 'The message field is required when the announcement is on.',
});

/** The firm's time zone (issue 21): an IANA name such as Europe/London, the zone of every "today". */
export const timeZoneSettingSchema = z.object({
  time_zone: z.string({ error: 'The time zone field is required.' }).trim().min(1, 'The time zone field is required.')
    .refine(isTimeZone, 'The time zone must be a name such as Europe/London or America/New_York.'),
});

/** GET /setting/time-zone: the zone in force, the one it falls back to, and the firm's today in it. */
export interface TimeZoneSetting { time_zone: string; default_time_zone: string; today: string }
