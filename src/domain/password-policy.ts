/**
 * Which rules a new password meets beyond the contract's length (PASSWORD_MIN_LENGTH ..
 * PASSWORD_MAX_LENGTH, checked at the boundary). `default` adds none; `strict` refuses a password
 * that is on a list of common and breached passwords, or that contains a word of the person's
 * address or of their organisation's name: the guesses an attacker tries first.
 */
export const PASSWORD_POLICIES = ['default', 'strict'] as const;
export type PasswordPolicyName = (typeof PASSWORD_POLICIES)[number];

/** What is known of whom a new password is for; a missing tenant name is simply not checked. */
export interface PasswordContext {
  readonly email: string;
  readonly tenantName?: string | undefined;
}

export type PasswordRefusal = 'common' | 'contains_email' | 'contains_tenant_name';

/**
 * Shorter words are left out: "bob" or "Acme Co"'s "co" would refuse too many good passwords
 * while adding little an attacker would not try anyway.
 */
export const CONTEXT_WORD_MIN_LENGTH = 4;

/**
 * The words a password must not contain, lower-cased: the whole value with its separators removed
 * (`ada.lovelace` → `adalovelace`), and each run of letters and digits in it (`ada`, `lovelace`),
 * keeping those of at least CONTEXT_WORD_MIN_LENGTH characters.
 */
export function contextWords(value: string): string[] {
  const words = comparable(value).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const squashed = words.join('');
  return [...new Set([squashed, ...words])].filter((word) => [...word].length >= CONTEXT_WORD_MIN_LENGTH);
}

/** Case and the two Unicode spellings of one accented letter do not make a word another word. */
function comparable(text: string): string {
  return text.normalize('NFC').toLowerCase().normalize('NFC');
}

/** The part of an address before its last `@`: what people reuse of their address in a password. */
function localPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

/**
 * Why `strict` refuses the password, or null when it does not. The list is asked first: a common
 * password is the worst of the three. `isCommon` answers for the list, ignoring case. Pure: the
 * application gives the list, the domain only says what the rules are.
 */
export function strictPasswordRefusal(
  password: string,
  context: PasswordContext,
  isCommon: (password: string) => boolean,
): PasswordRefusal | null {
  if (isCommon(password)) return 'common';
  const text = comparable(password);
  const contains = (value: string): boolean => contextWords(value).some((word) => text.includes(word));
  if (contains(localPart(context.email))) return 'contains_email';
  if (context.tenantName !== undefined && contains(context.tenantName)) return 'contains_tenant_name';
  return null;
}
