// The one money module (issue 21): sums and products in whole cents, never a float's 0.30000000000000004.
import { describe, expect, it } from 'vitest';
import {
  addMoney, compareMoney, formatMoney, hasAtMostTwoDecimals, multiplyMoney, parseMoney, subtractMoney, sumMoney, toCents,
} from '../../src/shared/money';

describe('money in whole cents', () => {
  it('adds what floating point gets wrong', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addMoney(0.1, 0.2)).toBe(0.3);
    // A thousand lines of 0.10 are 100.00, not 99.9999999999986.
    expect(sumMoney(Array.from({ length: 1000 }, () => 0.1))).toBe(100);
    expect(subtractMoney(8640, 4320.01)).toBe(4319.99);
  });

  it('rounds a product half up to the cent, exactly even beyond a double\'s integers', () => {
    expect(multiplyMoney(1.5, 0.05)).toBe(0.08);
    expect(multiplyMoney(20, 360)).toBe(7200);
    expect(multiplyMoney(0.01, 0.5)).toBe(0.01);
    expect(multiplyMoney(99_999.99, 9_999_999.95)).toBe(999_999_895_000);
  });

  it('compares to the cent and refuses a third decimal', () => {
    expect(compareMoney(7250, 7200)).toBe(1);
    expect(compareMoney(0.1 + 0.2, 0.3)).toBe(0);
    expect(compareMoney(1, 1.01)).toBe(-1);
    expect(toCents(1.005)).toBe(101);
    expect(hasAtMostTwoDecimals(12.34)).toBe(true);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
  });

  it('reads an amount as a person types it and writes it with its currency code', () => {
    expect(parseMoney(' 1,234.5 ')).toBe(1234.5);
    expect(parseMoney('12.345')).toBeNull();
    expect(parseMoney('12a')).toBeNull();
    expect(formatMoney(4320, 'EUR')).toBe('EUR\u00a04,320.00');
  });
});
