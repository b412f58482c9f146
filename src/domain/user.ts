import type { Role } from './role';

export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work a single login or signup can ask of the password hasher. */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The version every account starts at. Bearer tokens issued before tokens carried a version count
 * as this one: they keep working until their user's first role change, password change or removal.
 */
export const INITIAL_AUTH_VERSION = 0;

export interface User {
  readonly id: string;
  readonly tenantId: string;
  /** Always normalised (see normalizeEmail). */
  readonly email: string;
  readonly passwordHash: string;
  readonly role: Role;
  readonly createdAt: Date;
  /**
   * Raised by every change that must end the user's existing sessions (role, password, removal).
   * Tokens carry the version they were issued at; a token of an older version is refused.
   */
  readonly authVersion: number;
}
