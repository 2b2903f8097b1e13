// spec §9: dates read YYYY-MM-DD. A calendar date (an end date, a due date) reads the same in every
// time zone; a timestamp reads as the day and time where the user is (src/shared/dates.ts).
import { formatDay, formatDayTime } from '../../shared/dates';

export function formatDate(value: string | null | undefined): string {
  return formatDay(value);
}

export function formatDateTime(value: string | null | undefined): string {
  return formatDayTime(value);
}

/** snake_case / camelCase keys -> 'Title Case' labels for figures the server names. */
export function humanize(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

export { inSentence } from '../../shared/words';
