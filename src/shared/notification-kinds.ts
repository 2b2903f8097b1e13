// Kinds of notification (issue 24): what a person chooses how they hear about, on their profile. A
// workflow's notifications are of its definition's kind (its name); the modules name theirs.
import { z } from 'zod';

/** How a person hears of one kind: in the app (the bell and a toast), by email, both, or not at all. */
export const NOTIFICATION_CHANNELS = ['app', 'email', 'both', 'none'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  app: 'In the app',
  email: 'By email',
  both: 'In the app and by email',
  none: 'Not at all',
};

export interface NotificationKind {
  key: string;
  label: string;
  /** What it covers, as its reader would look for it. */
  description: string;
  /** Who may receive it: staff, partner logins, or both. */
  accounts: readonly ('app' | 'partner')[];
}

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  { key: 'leave-application', label: 'Leave', description: 'Applications, decisions and leave starting soon.', accounts: ['app'] },
  { key: 'expense', label: 'Expenses', description: 'Claims, their decisions and their reimbursement.', accounts: ['app'] },
  { key: 'time-sheet', label: 'Time sheets', description: 'Uploads and reviews.', accounts: ['app'] },
  { key: 'document-assign-history', label: 'Compliance documents', description: 'Documents assigned to you, reviews and expiry reminders.', accounts: ['app'] },
  { key: 'request', label: 'Requests', description: 'Requests assigned to you or raised by you, and their dates.', accounts: ['app'] },
  { key: 'candidate', label: 'Recruitment', description: 'Candidates, their stages and their assessments.', accounts: ['app'] },
  { key: 'onboarding', label: 'Onboarding', description: 'Checklist tasks and overdue reminders.', accounts: ['app'] },
  { key: 'contract', label: 'Contracts', description: 'Renewals and expiry.', accounts: ['app'] },
  { key: 'bgv-check', label: 'Background checks', description: 'Checks and their results.', accounts: ['app'] },
  { key: 'pre-billing', label: 'Pre-billing statements', description: 'Monthly statements and their checks.', accounts: ['app', 'partner'] },
  { key: 'partner-invoice', label: 'Invoices', description: 'Invoices, their approval and payments.', accounts: ['app', 'partner'] },
  { key: 'delegation', label: 'Approvals while away', description: 'Another manager\'s approvals handed to you, and taken back.', accounts: ['app'] },
  { key: 'other', label: 'Everything else', description: 'Announcements and anything not listed above.', accounts: ['app', 'partner'] },
];

/** The kinds an account type may choose about. */
export const kindsFor = (account: 'app' | 'partner') => NOTIFICATION_KINDS.filter((kind) => kind.accounts.includes(account));

/**
 * The job that mails notifications as they happen (src/server/jobs/registry.ts). Named here, outside the
 * server's modules: the job registry and the notification module import each other's ends.
 */
export const NOTIFICATION_MAIL_JOB = 'notification-mail';

/** The job that pushes notifications to the devices their readers opted in (issue 29; src/server/modules/push/send.ts). */
export const PUSH_JOB = 'push-send';

/** A kind's key as stored: a known kind, else 'other'. */
export const kindOf = (key: string | undefined): string => (NOTIFICATION_KINDS.some((kind) => kind.key === key) ? key! : 'other');

/** GET / PUT /api/notification/preferences. */
export interface NotificationPreferences {
  /** Every kind the caller may receive, with their choice or its default. */
  channels: Record<string, NotificationChannel>;
  /** Mail comes once a day, in one digest, rather than as it happens. */
  is_digest: boolean;
}

export const notificationPreferencesSchema = z.object({
  channels: z.record(z.string().max(60), z.enum(NOTIFICATION_CHANNELS, { error: 'Choose in the app, by email, both or not at all.' })),
  is_digest: z.boolean({ error: 'The digest field must be true or false.' }),
});

/**
 * Without a choice, a kind comes in the app, and decisions someone waits for (those their sender
 * marks as mailed) by email too.
 */
export const defaultChannel = (isMailed: boolean): NotificationChannel => (isMailed ? 'both' : 'app');
