// Labels inside sentences, on both sides (the server's messages, the screens' words).

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
