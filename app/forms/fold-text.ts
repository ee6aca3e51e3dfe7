/** Letters that carry their mark in the letter itself, so NFD leaves them whole: the ones names use. */
const UNSPLIT_LETTERS: Record<string, string> = { đ: "d", ø: "o", ł: "l", ß: "ss" };

/**
 * Text as a search compares it: lower case, accents and other combining marks removed, so "nguyen" and
 * "Nguyễn", "jose" and "José" fold to the same. Shared by the browser and the server. Written here rather than
 * taken from a library: it is a few lines, and the browser bundle of the technician picker stays small.
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[đøłß]/g, (letter) => UNSPLIT_LETTERS[letter] ?? letter);
}
