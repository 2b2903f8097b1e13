// Issue 28: the ledger's pure rules: accrual yearly and monthly (rounded down to half days), the
// expiry date of carried days, and what of them expires.
import { describe, expect, it } from 'vitest';
import { accrualLines, accruedBy, carriedExpiryDate, expiredDays } from '../../src/shared/resources/leave-ledger';

describe('leave accrual', () => {
  const yearly = { yearly_allowance: 20, accrual: 'yearly' as const };
  const monthly = { yearly_allowance: 20, accrual: 'monthly' as const };

  it('gives a yearly allowance whole from 1 January, nothing before', () => {
    expect(accruedBy(yearly, 2030, '2029-12-31')).toBe(0);
    expect(accruedBy(yearly, 2030, '2030-01-01')).toBe(20);
    expect(accrualLines(yearly, 2030, '2030-06-01')).toEqual([{ date: '2030-01-01', kind: 'accrued', days: 20, note: 'The allowance for 2030' }]);
  });

  it('gives a twelfth at the start of each month, rounded down to a half day, all of it in December', () => {
    expect(accruedBy(monthly, 2030, '2030-01-01')).toBe(1.5);
    expect(accruedBy(monthly, 2030, '2030-02-15')).toBe(3);
    expect(accruedBy(monthly, 2030, '2030-06-30')).toBe(10);
    expect(accruedBy(monthly, 2030, '2030-12-01')).toBe(20);
    expect(accruedBy(monthly, 2030, '2031-03-01')).toBe(20);
    const lines = accrualLines(monthly, 2030, '2030-12-31');
    expect(lines).toHaveLength(12);
    expect(lines.reduce((sum, line) => sum + line.days, 0)).toBe(20);
    expect(accruedBy({ yearly_allowance: null, accrual: 'monthly' }, 2030, '2030-12-31')).toBe(0);
  });
});

describe('carried days', () => {
  it('expire at the end of the chosen month, less what was taken by then', () => {
    expect(carriedExpiryDate(2032, 2)).toBe('2032-02-29');
    expect(carriedExpiryDate(2031, 3)).toBe('2031-03-31');
    expect(expiredDays(5, 2, '2031-03-31', '2031-03-31')).toBe(0);
    expect(expiredDays(5, 2, '2031-03-31', '2031-04-01')).toBe(3);
    expect(expiredDays(5, 7, '2031-03-31', '2031-04-01')).toBe(0);
    expect(expiredDays(0, 0, null, '2031-12-31')).toBe(0);
  });
});
