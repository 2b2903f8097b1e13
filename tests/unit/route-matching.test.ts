// Which page an address opens (shared/routes.ts matchRoute): a record's id is a number, so a mistyped
// address is a page that does not exist, not a record the server refuses to read ("expected number").
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/shared/routes';

describe('an address', () => {
  it('opens a record by its number', () => {
    expect(matchRoute('/expense/12')?.params).toEqual({ id: '12' });
    expect(matchRoute('/expense/12/edit')?.params).toEqual({ id: '12' });
  });

  it('with a word where the number goes opens no page', () => {
    expect(matchRoute('/expense/category')).toBeNull();
    expect(matchRoute('/expense/12x')).toBeNull();
    expect(matchRoute('/expense/-1/edit')).toBeNull();
  });

  it('keeps a token as written', () => {
    const reset = matchRoute('/password-reset/abc-DEF_123');
    expect(reset?.params).toEqual({ token: 'abc-DEF_123' });
  });
});
