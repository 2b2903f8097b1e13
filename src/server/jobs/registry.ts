// Every job a node runs, by name, and the recurring ones, declared once here. A job is enqueued
// with `enqueue(db, name, payload)`; the recurring ones are enqueued by each node's scheduler with
// the unique key `name:YYYY-MM-DD`, so N nodes enqueue today's run once and one of them runs it.
import type { JobHandler, RecurringJob } from './queue';
import { sendDueReminders } from './reminders';

export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  'daily-reminders': (app) => sendDueReminders(app),
};

export const recurringJobs: readonly RecurringJob[] = [
  { name: 'daily-reminders', hourUtc: 6 },
];
