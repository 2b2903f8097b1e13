// Issue 26: pieces the outbox's declared words (`offline` on a definition and on its self-service
// transitions, define.ts) are written with, so "Your leave application for 24–29 December 2026" reads
// the same everywhere. They format values; the sentences themselves stay whole in each definition.
import { formatMoney } from '../money';

type Values = Readonly<Record<string, unknown>>;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** "24 December 2026" from "2026-12-24" (or an ISO instant); anything else as given. */
export function dayName(value: unknown): string {
  const match = DAY.exec(String(value ?? ''));
  if (!match) return String(value ?? '');
  return `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}`;
}

/** "March 2026" from "2026-03" or "2026-03-01". */
export function monthName(value: unknown): string {
  const match = /^(\d{4})-(\d{2})/.exec(String(value ?? ''));
  return match ? `${MONTHS[Number(match[2]) - 1]} ${match[1]}` : String(value ?? '');
}

/** "24–29 December 2026", "30 November – 2 December 2026", "24 December 2026": the days of a leave as people write them. */
export function daySpan(from: unknown, to: unknown): string {
  const a = DAY.exec(String(from ?? ''));
  const b = DAY.exec(String(to ?? ''));
  if (!a || !b) return [dayName(from), dayName(to)].filter(Boolean).join(' – ');
  if (a[0] === b[0]) return dayName(from);
  if (a[1] !== b[1]) return `${dayName(from)} – ${dayName(to)}`;
  if (a[2] !== b[2]) return `${Number(a[3])} ${MONTHS[Number(a[2]) - 1]} – ${dayName(to)}`;
  return `${Number(a[3])}–${dayName(to)}`;
}

/** A person's text quoted, cut at `max` characters: “Taxi to the client site”. */
export function quoted(value: unknown, max = 60): string {
  const text = String(value ?? '').trim().replace(/\s+/g, ' ');
  return `“${text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text}”`;
}

/** "GBP 64.50" from an amount as typed and its currency; "" when the amount is not a number. */
export function moneyOf(values: Values, amountKey = 'amount', currencyKey = 'currency'): string {
  const amount = Number(values[amountKey]);
  const currency = String(values[currencyKey] ?? '').toUpperCase();
  if (values[amountKey] === '' || values[amountKey] === null || values[amountKey] === undefined || !Number.isFinite(amount)) return '';
  return currency ? formatMoney(amount, currency) : String(amount);
}
