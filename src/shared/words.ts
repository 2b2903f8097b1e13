// Labels inside sentences, on both sides (the server's messages, the screens' words).

/**
 * A label as it reads inside a sentence: lower case, except the words written in capitals, which are
 * acronyms ('PO number' -> 'PO number', 'BGV Checks' -> 'BGV checks', 'Employee ID' -> 'employee ID').
 * A plain toLowerCase() wrote "Search po number…" and "This bgv check is approved".
 */
export function inSentence(label: string): string {
  return label.replace(/[\p{L}\p{N}]+/gu, (word) => (/^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word) ? word : word.toLowerCase()));
}
