import type { Role } from './role';

export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work a single login or signup can ask of the password hasher. */
export const PASSWORD_MAX_LENGTH = 1024;

export interface User {
  readonly id: string;
  readonly tenantId: string;
  /** Always normalised (see normalizeEmail). */
  readonly email: string;
  readonly passwordHash: string;
  readonly role: Role;
  readonly createdAt: Date;
}
