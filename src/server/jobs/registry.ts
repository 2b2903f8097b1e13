// Every job a node runs, by name, and the recurring ones, declared once here. A job is enqueued
// with `enqueue(db, name, payload)`; the recurring ones are enqueued by each node's scheduler with
// the unique key `name:YYYY-MM-DD`, so N nodes enqueue today's run once and one of them runs it.
import type { JobHandler, RecurringJob } from './queue';
import { sendDueReminders } from './reminders';
import { closeDueAttempt } from '../modules/assessment/close';
import { expireContracts } from '../modules/contract/service';
import { sendOverdueTaskReminders } from '../modules/onboarding/service';
import { mailAssignments } from '../modules/compliance/service';
import { runComplianceDaily } from '../modules/compliance/reminders';
import { loadNextYearForFirmCountries } from '../modules/holiday/service';
import { runLeaveRollover } from '../modules/leave/ledger';
import { INVITATION_JOB, sendInvitations } from '../modules/user/invitations';
import { dailyBackup } from '../ops/backup-files';
import { sendNotificationDigests, sendNotificationMails } from '../modules/notification/notify';
import { NOTIFICATION_MAIL_JOB, PUSH_JOB } from '../../shared/notification-kinds';
import { INTERVIEW_MAIL_JOB, sendInterviewMails } from '../modules/interview/invitations';
import { OFFER_MAIL_JOB, sendOfferMail } from '../modules/interview/service';
import { sendPushes } from '../modules/push/send';

export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  'daily-reminders': (app) => sendDueReminders(app),
  // An assessment attempt closed at its deadline (issue 12), whether or not the browser is still there.
  'assessment-close': (app, payload) => closeDueAttempt(app, payload),
  // Issue 13: contracts expire on their end date; overdue onboarding tasks remind daily, then escalate.
  'contract-expiry': (app) => expireContracts(app),
  'onboarding-overdue-tasks': (app) => sendOverdueTaskReminders(app),
  // Issue 10: mail to the people a document was assigned to; expiry, overdue and expired assignments daily.
  'compliance-assignment-mail': (app, payload) => mailAssignments(app, payload),
  'compliance-daily': (app) => runComplianceDaily(app),
  // Issue 22: next year's public holidays for the firm's countries, early each December (removed days stay removed).
  'holidays-next-year': (app, _payload, job) => loadNextYearForFirmCountries(app, job),
  // Issue 28: unused leave carried into the new year up to each type's cap, once a year.
  'leave-rollover': (app, _payload, job) => runLeaveRollover(app, job),
  // Issue 22: the invitations of an import or of a bulk resend, throttled.
  [INVITATION_JOB]: (app, payload) => sendInvitations(app, payload),
  // Issue 30: the embedded database's own daily backup (a no-op on PostgreSQL).
  backup: (app) => dailyBackup(app),
  // Issue 24: notifications mailed as they happen, and once a day the digest of those who chose one.
  [NOTIFICATION_MAIL_JOB]: (app, payload) => sendNotificationMails(app, payload),
  'notification-digest': (app) => sendNotificationDigests(app),
  // Issue 28: interview invitations (with their calendar event) and offer letter links, after the commit.
  [INTERVIEW_MAIL_JOB]: (app, payload) => sendInterviewMails(app, payload),
  [OFFER_MAIL_JOB]: (app, payload) => sendOfferMail(app, payload),
  // Issue 29: notifications pushed to the devices their readers opted in (Web Push), once per device.
  [PUSH_JOB]: (app, payload) => sendPushes(app, payload),
};

export const recurringJobs: readonly RecurringJob[] = [
  // Hours on the firm's clock. Just after the firm's midnight, so a contract has moved on by its
  // dates (expired, or replaced by its new PO) before anyone opens it that day.
  { name: 'contract-expiry', hour: 0, minute: 5 },
  { name: 'daily-reminders', hour: 6 },
  { name: 'onboarding-overdue-tasks', hour: 6, minute: 15 },
  { name: 'compliance-daily', hour: 6, minute: 30 },
  // After the morning's reminders, so the digest carries them.
  { name: 'notification-digest', hour: 7 },
  // Once a year, from the firm's 1 December: next year's public holidays, in the quiet of the night.
  { name: 'holidays-next-year', hour: 2, yearlyFrom: { month: 12, day: 1 } },
  // From the firm's 1 January, once a year (keyed leave-rollover:YYYY): last year's unused leave carried over.
  { name: 'leave-rollover', hour: 1, yearlyFrom: { month: 1, day: 1 } },
  { name: 'backup', hour: 3 },
];
