export const TENANT_NAME_MAX_LENGTH = 100;

/** Names are stored NFC-normalised, so one name shown two ways is stored one way. */
export function normalizeTenantName(name: string): string {
  return name.normalize('NFC');
}

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: Date;
}
