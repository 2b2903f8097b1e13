// @vitest-environment jsdom
// Spec §7: uploads beside the generic forms (a time sheet, a returned copy, the public CV form) send
// bracketed keys, `{resource}[field]` and files as `{resource}[field][]`, as the generic forms do.
import { describe, expect, it } from 'vitest';
import { bracketedFormData } from '../../src/client/ui/resources/resource-api';
import { candidate } from '../../src/shared/resources/candidate';
import { documentAssignment } from '../../src/shared/resources/document-assignment';
import { timeSheet } from '../../src/shared/resources/time-sheet';

const keysOf = (form: FormData) => [...form.keys()];

describe('bracketed upload bodies', () => {
  it('wraps a time sheet\'s values and file in the resource name, leaving out what is not set', () => {
    const file = new File(['%PDF-1.4'], 'march.pdf', { type: 'application/pdf' });
    const form = bracketedFormData(timeSheet.name, { client_id: 4, period_type: 'month', hours: 160, note: null }, { file: [file] });
    expect(keysOf(form)).toEqual(['time-sheet[client_id]', 'time-sheet[period_type]', 'time-sheet[hours]', 'time-sheet[file][]']);
    expect(form.get('time-sheet[hours]')).toBe('160');
    expect((form.get('time-sheet[file][]') as File).name).toBe('march.pdf');
  });

  it('sends a returned copy and a CV under their resources\' names', () => {
    const copy = new File(['x'], 'signed.pdf');
    expect(keysOf(bracketedFormData(documentAssignment.name, {}, { returned_copy: [copy] }))).toEqual(['document-assign-history[returned_copy][]']);
    const cv = new File(['x'], 'cv.pdf');
    expect(keysOf(bracketedFormData(candidate.name, { name: 'Asha', total_experience: 5 }, { cv: [cv] })))
      .toEqual(['candidate[name]', 'candidate[total_experience]', 'candidate[cv][]']);
  });
});
