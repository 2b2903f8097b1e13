// The firm's working week and working days (issue 22), pure rules shared by the server (which counts
// a leave's days) and the browser (which lays out the calendar). Which weekdays are working days is the
// `working_week` setting (Monday to Friday unless the firm says otherwise); a working day is a working
// weekday that is not one of the person's public holidays (see the server's workingCalendarFor).
import { z } from 'zod';
import { weekdayOf } from './dates';

/** Monday first, as weekdayOf counts (Monday 0 .. Sunday 6). */
export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

export const weekdayLabels: Record<Weekday, string> = {
  monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday',
};

export const DEFAULT_WORKING_WEEK: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

/** PUT /setting/working-week: at least one working day; stored in week order without repeats. */
export const workingWeekSettingSchema = z.object({
  working_week: z.array(z.enum(weekdays, { error: 'Each working day must be a day of the week, such as monday.' }), { error: 'Choose the working days of the week.' })
    .min(1, 'Choose at least one working day.')
    .transform((days) => weekdays.filter((day) => days.includes(day))),
});
export type WorkingWeekSetting = z.output<typeof workingWeekSettingSchema>;

/** The weekday name of a calendar day (YYYY-MM-DD). */
export const weekdayNameOf = (date: string): Weekday => weekdays[weekdayOf(date)];

/** Whether `date` falls on one of the working week's days (holidays aside). */
export const isWorkingWeekday = (date: string, workingWeek: readonly Weekday[]): boolean => workingWeek.includes(weekdayNameOf(date));

/** What working days are counted from: the firm's working week and one person's public holidays (date -> name). */
export interface WorkingCalendar {
  workingWeek: readonly Weekday[];
  holidays: ReadonlyMap<string, string>;
}

/** A working weekday that is not a public holiday. */
export const isWorkingDay = (date: string, calendar: WorkingCalendar): boolean =>
  isWorkingWeekday(date, calendar.workingWeek) && !calendar.holidays.has(date);

/** "Monday to Friday", "Sunday to Thursday", "Monday, Wednesday and Friday": how the manual and screens say a week. */
export function describeWorkingWeek(workingWeek: readonly Weekday[]): string {
  const indexes = workingWeek.map((day) => weekdays.indexOf(day)).sort((a, b) => a - b);
  if (indexes.length === 7) return 'every day';
  const labels = indexes.map((index) => weekdayLabels[weekdays[index]]);
  // A run of three or more days in a row, allowing the week to wrap (Sunday to Thursday).
  for (let start = 0; start < indexes.length && indexes.length >= 3; start += 1) {
    const run = [...indexes.slice(start), ...indexes.slice(0, start)];
    if (run.every((day, i) => i === 0 || day === (run[i - 1] + 1) % 7)) {
      return `${weekdayLabels[weekdays[run[0]]]} to ${weekdayLabels[weekdays[run[run.length - 1]]]}`;
    }
  }
  return labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}
