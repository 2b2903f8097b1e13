// Integer cents for the bank file and the batch totals: amounts are added as whole cents, never as
// binary fractions (0.1 + 0.2). A stopgap until issue 21's shared src/shared/money.ts is merged;
// the lead switches these calls over then.

/** A stored amount (numeric(12, 2) read as a number) in whole cents. */
export const toCents = (amount: number): number => Math.round(amount * 100);

/** Whole cents as the bank file writes them: "1234.50", no thousands separator, minus sign if any. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Whole cents back to the number the API sends amounts as (exact for two decimals). */
export const centsToAmount = (cents: number): number => Number(centsToDecimal(cents));
