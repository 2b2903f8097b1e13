// Decision 060: a reference field whose choice cannot be saved answers about what was chosen ("The
// person you chose…"), never with its label glued into "The selected … is invalid." ("The selected
// assign to is invalid.", "One of the selected people placed is not valid.").
import { describe, expect, it } from 'vitest';
import { chosenNoun, referenceRefusal, type FieldDefinition, type ResourceDefinition } from '../../src/shared/resources/define';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { eitherOf, withArticle, wrongFileType } from '../../src/shared/words';

/** Words that make a label a verb phrase or a column name, never the name of what is chosen. */
const NOT_A_NOUN = /\b(assign|assigned|created|decided|selected|supplementary|replaces|placed|by|to|id|ids)\b/i;

const referenceFields = resourceDefinitions.flatMap((definition) => Object.entries(definition.fields)
  .filter((entry): entry is [string, FieldDefinition & Required<Pick<FieldDefinition, 'reference'>>] => !!entry[1].reference)
  .map(([key, field]) => ({ where: `${definition.name}.${key} ("${field.label}")`, definition, key, field })));

const targetOf = (name: string): ResourceDefinition => {
  const target = resourceDefinitions.find((candidate) => candidate.name === name);
  if (!target) throw new Error(`No definition named ${name}`);
  return target;
};

describe('the refusal of a reference field', () => {
  it('is written about a noun for every reference field of every definition', () => {
    expect(referenceFields.length).toBeGreaterThan(40);
    for (const { where, field } of referenceFields) {
      const target = targetOf(field.reference.resource);
      const noun = chosenNoun(target);
      expect(`${noun.one} / ${noun.many}`, where).not.toMatch(NOT_A_NOUN);
      const message = referenceRefusal(target, field.input === 'multiselect');
      expect(message, where).toMatch(/^(The|One of the) [a-z][\w -]* you chose has been removed or cannot be chosen here\. Choose (another|again)\.$/);
      expect(message, where).not.toMatch(NOT_A_NOUN);
    }
  });

  it('calls a chosen user a person, and several of them people', () => {
    const assignTo = referenceFields.find(({ definition, key }) => definition.name === 'request' && key === 'assign_to')!;
    expect(referenceRefusal(targetOf(assignTo.field.reference.resource), false))
      .toBe('The person you chose has been removed or cannot be chosen here. Choose another.');
    const placed = referenceFields.find(({ definition, key }) => definition.name === 'contract' && key === 'person_ids')!;
    expect(referenceRefusal(targetOf(placed.field.reference.resource), true))
      .toBe('One of the people you chose has been removed or cannot be chosen here. Choose again.');
    expect(referenceRefusal(targetOf('leave-type'), false)).toBe('The leave type you chose has been removed or cannot be chosen here. Choose another.');
  });

  it("answers an id that can be no record (a form's schema) with a sentence about a noun too", () => {
    const glued: string[] = [];
    for (const { where, definition, key } of referenceFields) {
      if (!(key in definition.schema.shape)) continue;
      const rule = definition.schema.pick({ [key]: true });
      for (const value of [-1, 2 ** 31, 'x', [-1]]) {
        for (const { message } of rule.safeParse({ [key]: value }).error?.issues ?? []) {
          if (NOT_A_NOUN.test(message)) glued.push(`${where} with ${JSON.stringify(value)}: ${message}`);
        }
      }
    }
    expect(glued).toEqual([]);
  });
});

describe('the refusal of a file of the wrong type', () => {
  it('names the file and the types as people write them, never the field label', () => {
    expect(wrongFileType('scan.exe', ['pdf'])).toBe('scan.exe cannot be attached here: choose a PDF file.');
    expect(wrongFileType('scan.exe', ['pdf', 'docx'])).toBe('scan.exe cannot be attached here: choose a PDF or DOCX file.');
    expect(wrongFileType('list.pdf', ['xlsx', 'csv'])).toBe('list.pdf cannot be attached here: choose an XLSX or CSV file.');
    expect(eitherOf(['PDF', 'PNG', 'JPG'])).toBe('PDF, PNG or JPG');
  });
});

describe('a noun with its article', () => {
  it('says "an" before a vowel sound and "a" before a consonant one', () => {
    expect(['expense', 'invoice', 'onboarding', 'admin account', 'user', 'unit', 'European client', 'manager', 'BGV check', 'SOW', 'PO number'].map(withArticle))
      .toEqual(['an expense', 'an invoice', 'an onboarding', 'an admin account', 'a user', 'a unit', 'a European client', 'a manager', 'a BGV check', 'an SOW', 'a PO number']);
  });
});
