// Issue 28: a list field's unknown choice is refused in words that fit its label's number.
import { describe, expect, it } from 'vitest';
import { oneOfSelectedInvalid } from '../../src/server/resources/checks';

describe('oneOfSelectedInvalid', () => {
  it('says "one of the selected …" for a plural label', () => {
    expect(oneOfSelectedInvalid('Interviewers')).toBe('One of the selected interviewers is not valid.');
    expect(oneOfSelectedInvalid('Permissions')).toBe('One of the selected permissions is not valid.');
    expect(oneOfSelectedInvalid('People placed')).toBe('One of the selected people placed is not valid.');
  });

  it('says "a selected …" for a singular label, never "the selected skill are"', () => {
    expect(oneOfSelectedInvalid('Skill')).toBe('A selected skill is not valid.');
    expect(oneOfSelectedInvalid('Business')).toBe('A selected business is not valid.');
    expect(oneOfSelectedInvalid('Status')).toBe('A selected status is not valid.');
    expect(oneOfSelectedInvalid('Analysis')).toBe('A selected analysis is not valid.');
  });
});
