/**
 * A small, honest estimate of a new password's strength, shown while it is typed. Length counts
 * most; a mix of kinds of character helps a little; a few patterns every guesser tries first
 * (a very common password with digits or symbols added, a run such as `12345678` or `qwertyui`,
 * the person's own address or organisation) make it weak whatever its length. It is only advice:
 * the page never refuses a password for it, and the API decides (its length rule, and under
 * PASSWORD_POLICY=strict its own list of common passwords, far longer than this page holds).
 */
import { PASSWORD_MIN_LENGTH } from './sign-up-rules';

export type StrengthLevel = 'too-short' | 'weak' | 'fair' | 'good' | 'strong';

export interface StrengthEstimate {
  readonly level: StrengthLevel;
  /** One sentence or two, for the person: the level and why, or what would help. */
  readonly text: string;
}

/** What the person is known by, which a guesser tries first. */
export interface StrengthContext {
  readonly email?: string | undefined;
  readonly organisation?: string | undefined;
}

/** The bases of the most common passwords: `Password1!` and `iloveyou2024` are these with a little added. */
const COMMON_BASES = [
  'password', 'passw0rd', 'p@ssword', 'qwerty', 'iloveyou', 'sunshine', 'football', 'baseball', 'princess',
  'welcome', 'letmein', 'trustno', 'superman', 'batman', 'starwars', 'dragon', 'monkey', 'master', 'shadow',
  'whatever', 'computer', 'michael', 'jennifer', 'jordan', 'charlie', 'freedom', 'secret', 'admin', 'login',
  'abc123', 'qazwsx', 'zaq12wsx', '1q2w3e4r', 'asdfgh', 'zxcvbn', 'changeme', 'default', 'hello',
];

/** Rows a finger runs along, forwards; runs backwards are checked by reversing the password. */
const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc4rfv'];

const LEVELS: readonly StrengthLevel[] = ['weak', 'fair', 'good', 'strong'];

const ADVICE = 'Longer is stronger: a few unrelated words make a good password.';

/** Words of four characters or more, as the API's strict policy counts them. */
function words(value: string): string[] {
  const parts = value.normalize('NFC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [parts.join(''), ...parts].filter((word) => [...word].length >= 4);
}

function isRunOrRepeat(lower: string): boolean {
  const stripped = lower.replace(/[^\p{L}\p{N}]/gu, '');
  if (stripped.length === 0 || new Set(stripped).size <= 2) return true;
  const reversed = [...stripped].reverse().join('');
  return RUNS.some((run) => run.includes(stripped) || run.includes(reversed));
}

/** A common base with only digits and symbols around it, `0` for `o` and `@` for `a` undone too. */
function isCommonBase(lower: string): boolean {
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  const unleet = core.replace(/0/g, 'o').replace(/@/g, 'a').replace(/1/g, 'i').replace(/3/g, 'e').replace(/\$/g, 's');
  return COMMON_BASES.some((base) => core === base || unleet === base);
}

function kindsOfCharacter(password: string): number {
  return [/\p{Ll}/u, /\p{Lu}/u, /\p{N}/u, /[^\p{Ll}\p{Lu}\p{N}]/u].filter((kind) => kind.test(password)).length;
}

export function estimateStrength(password: string, context: StrengthContext = {}): StrengthEstimate {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return { level: 'too-short', text: `Too short: use at least ${PASSWORD_MIN_LENGTH} characters.` };
  const lower = password.normalize('NFC').toLowerCase();
  if (isCommonBase(lower) || isRunOrRepeat(lower)) {
    return { level: 'weak', text: 'Weak: this looks like a common password, one of the first that is guessed.' };
  }
  const local = context.email?.includes('@') ? context.email.slice(0, context.email.lastIndexOf('@')) : context.email;
  if (local && words(local).some((word) => lower.includes(word))) {
    return { level: 'weak', text: 'Weak: it contains your e-mail address, which others can see.' };
  }
  if (context.organisation && words(context.organisation).some((word) => lower.includes(word))) {
    return { level: 'weak', text: 'Weak: it contains the organisation\'s name, one of the first guesses.' };
  }
  let index = length >= 20 ? 3 : length >= 16 ? 2 : length >= 12 ? 1 : 0;
  // A mix of kinds of character widens what a guesser must try, but less than a few more characters do.
  if (kindsOfCharacter(password) >= 3 && index < 3) index += 1;
  const level = LEVELS[index] as StrengthLevel;
  const name = level.charAt(0).toUpperCase() + level.slice(1);
  return { level, text: index < 2 ? `${name}. ${ADVICE}` : `${name}.` };
}
