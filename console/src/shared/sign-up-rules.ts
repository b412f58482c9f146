/**
 * The sign-up rules the page can check before spending one of the few sign-ups a minute the API
 * allows (its `signup` rate limit). They mirror the API's (docs/openapi.yaml, SignupRequest); the
 * API stays the authority, and its own per-field messages are shown the same way.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
export const TENANT_NAME_MAX_LENGTH = 100;

export type SignupField = 'tenant_name' | 'email' | 'password' | 'invite_token';
export type FieldMessages = Partial<Record<SignupField, string>>;

// Deliberately loose (something@something.something): the API's own check decides the edge cases.
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string | undefined {
  if (email.trim() === '') return 'Enter your e-mail address.';
  if (!LOOKS_LIKE_EMAIL.test(email.trim())) return 'Enter an e-mail address such as ada@example.com.';
  return undefined;
}

export function passwordProblem(password: string): string | undefined {
  if (password === '') return 'Choose a password.';
  if ([...password].length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if ([...password].length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

export function tenantNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'Enter a name for your organisation.';
  if ([...name.normalize('NFC')].length > TENANT_NAME_MAX_LENGTH) return `Use at most ${TENANT_NAME_MAX_LENGTH} characters.`;
  return undefined;
}

export function inviteTokenProblem(token: string): string | undefined {
  if (token.trim() === '') return 'Paste the token from your invitation link.';
  return undefined;
}

/** Only the fields that have a problem. */
export function problems(checks: Record<SignupField, string | undefined> | Partial<Record<SignupField, string | undefined>>): FieldMessages {
  const found: FieldMessages = {};
  for (const [field, message] of Object.entries(checks) as [SignupField, string | undefined][]) {
    if (message !== undefined) found[field] = message;
  }
  return found;
}
