/** Addresses are compared case-insensitively: every address is stored and looked up in this form. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const MAX_EMAIL_LENGTH = 254;
