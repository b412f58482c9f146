/**
 * Addresses are compared case-insensitively and by what they show: every address is stored and
 * looked up in this form. NFC (after lower-casing, which can decompose) makes `é` typed as one code
 * point and as `e` + U+0301 the same address, so the two spellings cannot be registered apart.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase().normalize('NFC');
}

export const MAX_EMAIL_LENGTH = 254;
