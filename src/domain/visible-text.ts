/**
 * Text a person reads to decide whom or what they are dealing with (an e-mail address in a member
 * list or an invite, a tenant's name, an API key's name, a product module's titles) must show what
 * it holds. One rule for all of them: the text is stored NFC-normalised (normalizeVisibleText), and
 * three kinds of character that let it show something else are refused:
 * - control characters (C0, DEL, C1): a newline or an escape sequence rewrites a log line or a
 *   terminal;
 * - format characters, which are invisible: zero-width spaces and joiners, the byte-order mark,
 *   soft hyphens, and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) that
 *   make `moc.elpmaxe@` read as `example.com`;
 * - combining marks with no base character to sit on (at the start, or after a space, a control,
 *   a format character or punctuation), which draw over the character before them.
 * Lookalike letters from other scripts (Cyrillic `а` for Latin `a`) are not refused: they are
 * letters of their own, and a name may legitimately be written in any script.
 */
export type HiddenCharacterKind = 'control characters' | 'invisible formatting characters' | 'combining marks without a base character';

const CONTROL = /\p{Cc}/u;
const FORMAT = /\p{Cf}/u;
const MARK = /\p{M}/u;
/** What a combining mark may follow: a letter or a number, or another mark on one. */
const BASE = /[\p{L}\p{N}\p{M}]/u;

/** The first kind of hiding character in `text`, or null when it shows what it holds. */
export function hiddenCharacterIn(text: string): HiddenCharacterKind | null {
  let previous: string | undefined;
  for (const char of text) {
    if (CONTROL.test(char)) return 'control characters';
    if (FORMAT.test(char)) return 'invisible formatting characters';
    if (MARK.test(char) && (previous === undefined || !BASE.test(previous))) return 'combining marks without a base character';
    previous = char;
  }
  return null;
}

/**
 * The same rule as one regular expression, for the API reference's schemas (a JSON Schema `pattern`,
 * ECMA-262 with the `u` flag): every mark follows a letter or a number (or marks on one), and no
 * character is a control or format character. hiddenCharacterIn stays the check the service runs,
 * since it names the kind found; test/http/request-schemas.test.ts holds the two to one answer.
 */
export const VISIBLE_TEXT_PATTERN = /^(?:[\p{L}\p{N}]\p{M}*|[^\p{Cc}\p{Cf}\p{M}])*$/u;

/**
 * The one form such text is checked and stored in: NFC, so one name shown two ways (`é` as one code
 * point, or `e` + U+0301) is stored one way. Checks of length apply to this form, which can be
 * longer or shorter than what was sent.
 */
export function normalizeVisibleText(text: string): string {
  return text.normalize('NFC');
}
