import { z } from 'zod';

/** The announcement banner (spec §1): shown while status is on. */
export const announcementSchema = z.object({
  status: z.enum(['on', 'off']),
  message: z.string().trim().max(500, 'The message may not be greater than 500 characters.'),
}).refine((value) => value.status === 'off' || value.message.length > 0, {
  path: ['message'], message: 'The message field is required when the announcement is on.',
});
