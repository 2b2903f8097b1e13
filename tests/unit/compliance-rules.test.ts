// A person's compliance badge (issue 10, spec §5 "Expiry check") at its boundaries.
import { describe, expect, it } from 'vitest';
import { complianceBadges, complianceStatus } from '../../src/shared/rules';

describe("a person's compliance (spec §5)", () => {
  const today = '2026-03-10';
  // Issue 22: an empty list is "Nothing assigned" (neutral), not expired: nobody has asked for anything yet.
  it('reads nothing assigned, with a neutral badge, when nothing is held or assigned', () => {
    expect(complianceStatus([], today)).toBe('nothing-assigned');
    expect(complianceBadges['nothing-assigned']).toEqual({ label: 'Nothing assigned', tone: 'gray' });
  });
  it('is expired when an item expires today, the boundary, or earlier', () => {
    expect(complianceStatus([{ expiry_date: '2026-03-10' }], today)).toBe('expired');
    expect(complianceStatus([{ expiry_date: '2026-04-01' }, { expiry_date: '2026-03-09' }], today)).toBe('expired');
  });
  it('is valid when every dated item expires after today', () => {
    expect(complianceStatus([{ expiry_date: '2026-03-11' }], today)).toBe('valid');
    expect(complianceStatus([{ expiry_date: '2026-03-11' }, { expiry_date: '2027-01-01' }], today)).toBe('valid');
  });
  it('counts an item without an expiry date as held and never expiring', () => {
    expect(complianceStatus([{ expiry_date: null }], today)).toBe('valid');
    expect(complianceStatus([{ expiry_date: null }, { expiry_date: '2026-03-10' }], today)).toBe('expired');
  });
  it('compares calendar days, not times: the year boundary too', () => {
    expect(complianceStatus([{ expiry_date: '2026-12-31' }], '2027-01-01')).toBe('expired');
    expect(complianceStatus([{ expiry_date: '2027-01-01' }], '2026-12-31')).toBe('valid');
  });
});
