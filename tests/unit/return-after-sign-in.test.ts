// After signing in, a person lands on the page they were opening (lib/navigation.ts), and only on a
// page of this site in their own area: the address comes from the URL, which anyone can write.
import { describe, expect, it } from 'vitest';
import { loginPathFor, returnPathFrom } from '../../src/client/lib/navigation';

const from = (value: string, account: 'app' | 'partner' = 'app') => returnPathFrom(`?return_to=${encodeURIComponent(value)}`, account);

describe('the page to return to after signing in', () => {
  it('is the page asked for, with its query and anchor', () => {
    expect(from('/expense/12?tab=history#comments')).toBe('/expense/12?tab=history#comments');
    expect(from('/partner/invoice/3', 'partner')).toBe('/partner/invoice/3');
  });

  it('is never another site, however the address is written', () => {
    for (const value of ['//evil.example/expense', 'https://evil.example/expense', '/\\evil.example', 'javascript:alert(1)', 'expense']) {
      expect(from(value), value).toBeNull();
    }
  });

  it('is never a page of the other account type, a page open to all, the home page or no page', () => {
    expect(from('/partner/invoice/3', 'app')).toBeNull();
    expect(from('/expense/12', 'partner')).toBeNull();
    expect(from('/forgot-password')).toBeNull();
    expect(from('/dashboard')).toBeNull();
    expect(from('/no-such-page')).toBeNull();
    expect(returnPathFrom('', 'app')).toBeNull();
  });

  it('goes on the login address only when there is one worth keeping', () => {
    expect(loginPathFor('app', '/expense/12?tab=history')).toBe('/?return_to=%2Fexpense%2F12%3Ftab%3Dhistory');
    expect(loginPathFor('partner', '/partner/pre-billing')).toBe('/partner/login?return_to=%2Fpartner%2Fpre-billing');
    expect(loginPathFor('app', '/dashboard')).toBe('/');
    expect(loginPathFor('app')).toBe('/');
  });
});
