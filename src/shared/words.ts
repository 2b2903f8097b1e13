// Labels inside sentences, on both sides (the server's messages, the screens' words), and the refusals
// the server writes about a record without gluing its labels together (decision 060).

/**
 * A label as it reads inside a sentence: lower case, except the words written in capitals, which are
 * acronyms ('PO number' -> 'PO number', 'BGV Checks' -> 'BGV checks', 'Employee ID' -> 'employee ID').
 * A plain toLowerCase() wrote "Search po number…" and "This bgv check is approved".
 */
export function inSentence(label: string): string {
  return label.replace(/[\p{L}\p{N}]+/gu, (word) => (/^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word) ? word : word.toLowerCase()));
}

/**
 * What a reference field answers when the record chosen in it cannot be saved (decision 060): it was
 * deleted, made inactive, lies outside what the caller may choose, or the id was never a record.
 * Written about what was chosen ("person", "leave type"), never the field's label: a label may be a
 * verb phrase ("Assign To" read "The selected assign to is invalid.") and the sentence is also shown
 * on its own, in a toast, where no field stands beside it.
 */
export function chosenOneRefused(noun: string): string {
  return `The ${noun} you chose has been removed or cannot be chosen here. Choose another.`;
}

/** The same for a field of several choices, with the plural noun ("people", "interviewers"). */
export function oneOfChosenRefused(pluralNoun: string): string {
  return `One of the ${pluralNoun} you chose has been removed or cannot be chosen here. Choose again.`;
}

/**
 * The refusals that name the state a record is in (decision 060): the state's label is quoted as the
 * name it has on the badge, never read as an adjective ("This candidate is interview now", "This leave
 * application is back fill arrangement is in progress now").
 */
const statusIs = (recordLabel: string, stateLabel: string) => `The status of this ${inSentence(recordLabel)} is “${stateLabel}”`;

/** A transition asked of a record no longer in a state it starts from (409). */
export const staleStepRefusal = (recordLabel: string, stateLabel: string) => `${statusIs(recordLabel, stateLabel)}, so this step no longer applies.`;

/** An edit of a record in a state that is not editable (409). */
export const notEditableRefusal = (recordLabel: string, stateLabel: string) => `${statusIs(recordLabel, stateLabel)}, so it can no longer be edited.`;

/**
 * A transition the caller's permissions do not allow (403). Not its label: a button's words ("Approve,
 * back fill arranged", "Put on hold") glued in read "You may not put on hold this expense.".
 */
export const stepNotPermitted = (recordLabel: string) => `You do not have permission to take this step on this ${inSentence(recordLabel)}.`;

/** "PDF", "PDF or DOCX", "PDF, PNG or JPG". */
export function eitherOf(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words[0] ?? '';
}

/**
 * A file refused for its type, named by its file name and said without the field's label ("scan.exe:
 * the file (versions) must be a file of type pdf, docx." read as glued): the types as people write them.
 */
export function wrongFileType(fileName: string, extensions: readonly string[]): string {
  return `${fileName} cannot be attached here: choose ${withArticle(eitherOf(extensions.map((extension) => extension.toUpperCase())))} file.`;
}

/** "a user", "an expense", "an onboarding": the article a noun phrase takes as it is said. */
export function withArticle(noun: string): string {
  // A vowel letter, save a "u" or "eu" said "you" (user, unit, European); an acronym by its letters' sound.
  const isVowelSound = /^[A-Z]{2}/.test(noun) ? /^[AEFHILMNORSX]/.test(noun) : /^([aio]|e(?!u)|u(?!s|ni))/i.test(noun);
  return `${isVowelSound ? 'an' : 'a'} ${noun}`;
}

/** A sentence's first word: "An expense with these details…". */
export const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A label opening a sentence: "Leave application created successfully.", not a heading's "Leave Application". */
export const asSubject = (label: string) => capitalised(inSentence(label));
