// The statement's checks as the partner reads them under the fields (the form runs the same schema):
// an empty month or currency is required rather than malformed, a malformed month is said once, and a line left
// without its days or hours names that field.
import { describe, expect, it } from 'vitest';
import { parsePreBillingLines, preBilling } from '../../src/shared/resources/pre-billing';

const monthMessages = (month: string) => {
  const result = preBilling.schema.safeParse({ month, currency: 'EUR', lines: [] });
  return result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === 'month').map((issue) => issue.message);
};

describe('a pre-billing\'s month and lines, in words', () => {
  it('calls an empty month required, and says a malformed one once', () => {
    expect(monthMessages('')).toEqual(['The month field is required.']);
    expect(monthMessages('abc')).toEqual(['The month must be a month in the format YYYY-MM.']);
    expect(monthMessages('1999-03')).toEqual(['The month must be a month in the format YYYY-MM.']);
    expect(monthMessages('2026-03')).toEqual([]);
  });

  it('calls an empty currency required, and one that is not a code a wrong code', () => {
    const currencyMessages = (currency: string) => {
      const result = preBilling.schema.safeParse({ month: '2026-03', currency, lines: [] });
      return result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === 'currency').map((issue) => issue.message);
    };
    expect(currencyMessages('')).toEqual(['The currency field is required.']);
    expect(currencyMessages('euro')).toEqual(['The currency must be a 3-letter code (EUR, USD, INR).']);
    expect(currencyMessages('eur')).toEqual([]);
  });

  it('asks for the days or hours of a line left without them, and still refuses a quantity that is not a number', () => {
    expect(parsePreBillingLines([{ engineer_id: 1, client_id: 2, quantity: null }]).errors).toEqual({ 'lines.0.quantity': 'The days or hours field is required.' });
    expect(parsePreBillingLines([{ engineer_id: 1, client_id: 2, quantity: 'ten' }]).errors).toEqual({ 'lines.0.quantity': 'The quantity field must be a number.' });
  });
});
