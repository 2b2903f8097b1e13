// The statement's checks as the partner reads them under the fields (the form runs the same schema):
// an empty month is required rather than malformed, a malformed one is said once, and a line left
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

  it('asks for the days or hours of a line left without them, and still refuses a quantity that is not a number', () => {
    expect(parsePreBillingLines([{ engineer_id: 1, client_id: 2, quantity: null }]).errors).toEqual({ 'lines.0.quantity': 'The days or hours field is required.' });
    expect(parsePreBillingLines([{ engineer_id: 1, client_id: 2, quantity: 'ten' }]).errors).toEqual({ 'lines.0.quantity': 'The quantity field must be a number.' });
  });
});
