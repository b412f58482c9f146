import { normalizeVisibleText } from './visible-text';

export const TENANT_NAME_MAX_LENGTH = 100;

/** Names are stored NFC-normalised, so one name shown two ways is stored one way (visible-text.ts). */
export function normalizeTenantName(name: string): string {
  return normalizeVisibleText(name);
}

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: Date;
}
