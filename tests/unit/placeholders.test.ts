// Issue 24: a placeholder is a hint, never a value. An empty field that shows "30" or "EUR" reads as
// filled in, and then fails as required; a real default is `initial` / `initialFrom` instead.
import { describe, expect, it } from 'vitest';
import { resourceDefinitions } from '../../src/shared/resources/registry';

/** Hints that say what empty means, or name a format, rather than give an example. */
const MEANINGS = new Set(['Myself', 'Unlimited', 'YYYY-MM', 'The person placed', 'What the vendor found', 'Anything accounting should know about this month']);

describe('placeholders of the definitions', () => {
  const placeholders = resourceDefinitions.flatMap((definition) => Object.entries(definition.fields)
    .filter(([, field]) => field.placeholder !== undefined)
    .map(([key, field]) => ({ where: `${definition.name}.${key}`, placeholder: field.placeholder! })));

  it('are examples ("e.g. …") or say what empty means, never a bare value', () => {
    expect(placeholders.length).toBeGreaterThan(10);
    const bare = placeholders.filter(({ placeholder }) => !placeholder.startsWith('e.g. ') && !MEANINGS.has(placeholder));
    expect(bare).toEqual([]);
  });

  it('never put a number or a currency code where a value would stand', () => {
    const valueLike = placeholders.filter(({ placeholder }) => /^[\d.,\s+]+$|^[A-Z]{3}$/.test(placeholder));
    expect(valueLike).toEqual([]);
  });

  it('leave real defaults to initial values: Payment Terms starts at 30 days', () => {
    const partner = resourceDefinitions.find((definition) => definition.name === 'ikk-partner')!;
    expect(partner.fields.payment_terms_days).toMatchObject({ initial: 30 });
    expect(partner.fields.payment_terms_days.placeholder).toBeUndefined();
  });
});
