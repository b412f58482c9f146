export const TENANT_NAME_MAX_LENGTH = 100;

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: Date;
}
