// Money (issue 21): amounts travel as numbers with at most two decimals (the database's numeric(14, 2)
// read in drizzle's 'number' mode), but every sum, difference and product is done in whole cents, so
// 0.1 + 0.2 is 0.30 and a statement of a thousand lines adds up to the cent. One module for the
// server's services and the screens; nothing else rounds money by itself.

/** Whole cents of an amount ("12.345" and 12.345 are refused by `hasAtMostTwoDecimals`, not here). */
export function toCents(amount: number | string): number {
  const value = typeof amount === 'string' ? Number(amount.trim()) : amount;
  if (!Number.isFinite(value)) throw new RangeError(`Not an amount of money: ${String(amount)}`);
  // Math.round(x * 100) alone turns 1.005 into 100 (1.005 * 100 = 100.49999…): the epsilon puts it back.
  return Math.round(value * 100 + Math.sign(value) * 1e-7);
}

/** The amount of `cents` whole cents, as the API carries it (1234 -> 12.34). */
export const fromCents = (cents: number): number => cents / 100;

/** An amount rounded to the cent (the only rounding money gets). */
export const roundMoney = (amount: number): number => fromCents(toCents(amount));

/** Whether an amount has at most two decimals (12.34 yes, 12.345 no): money is refused, never rounded behind someone's back. */
export const hasAtMostTwoDecimals = (amount: number): boolean => Number.isFinite(amount) && Math.abs(amount * 100 - toCents(amount)) < 1e-6;

/** The sum of amounts, added in cents. */
export const sumMoney = (amounts: readonly number[]): number => fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0));

/** a + b, in cents. */
export const addMoney = (a: number, b: number): number => fromCents(toCents(a) + toCents(b));

/** a - b, in cents. */
export const subtractMoney = (a: number, b: number): number => fromCents(toCents(a) - toCents(b));

/** -1, 0 or 1 as a is less than, equal to or more than b, to the cent (never a float's 1e-13 apart). */
export const compareMoney = (a: number, b: number): -1 | 0 | 1 => Math.sign(toCents(a) - toCents(b)) as -1 | 0 | 1;

/**
 * A quantity (at most two decimals: days or hours) times a rate, rounded half up to the cent. Done
 * in BigInt: 99,999.99 days at a rate of a billion overflow a double's exact integers.
 */
export function multiplyMoney(quantity: number, rate: number): number {
  const product = BigInt(toCents(quantity)) * BigInt(toCents(rate)); // in ten-thousandths
  const sign = product < 0n ? -1n : 1n;
  const magnitude = product * sign;
  return fromCents(Number(((magnitude + 50n) / 100n) * sign));
}

/**
 * An amount typed by a person: "1,234.50", "1234.5", " 12 " -> the number, or null when it is not
 * one (letters, two points, more than two decimals).
 */
export function parseMoney(text: string): number | null {
  const cleaned = text.trim().replaceAll(/[\s,]/g, '');
  if (!/^-?\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return fromCents(toCents(cleaned));
}

/** An amount with its currency code, unbroken: "INR 1,234.50" (codes, not symbols: $ is several currencies). */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}

/** The figure alone, two decimals, the same in every browser language: "1,200.00" (the row or heading names the currency). */
export const formatAmount = (amount: number): string =>
  new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);

/** Whole cents as a bank file writes them: "1234.50", no thousands separator, a minus sign if any. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The firm's currency until an admin saves the firm profile (issue 22); kept here, free of zod, for the login bundle. */
export const DEFAULT_FIRM_CURRENCY = 'USD' as const;
