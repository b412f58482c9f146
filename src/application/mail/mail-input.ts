import { isRole, type Role } from '../../domain/role';

/**
 * A template was given input it cannot render: a field missing or of the wrong kind. Inputs are
 * stored as JSON and rendered later, so this is how a row written by another version, or by
 * mistake, shows up: as a failure that names the field, never as "undefined" in someone's inbox.
 */
export class MailInputInvalid extends Error {
  constructor(readonly field: string, problem: string) {
    super(`mail input ${field}: ${problem}`);
    this.name = 'MailInputInvalid';
  }
}

/** What every template needs besides its own input. */
export interface MailContext {
  /** Where people reach the service (PUBLIC_URL), such as `https://auth.example.com`. */
  readonly publicUrl: string;
}

/** What every message's input holds: whom it goes to and which tenant it concerns. */
export interface MailAddressing {
  readonly to: string;
  readonly tenantName: string;
}

export function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new MailInputInvalid(field, 'must be a non-empty string');
  return value;
}

/** Text that may be absent (null); present, it must be a string. */
export function optionalText(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new MailInputInvalid(field, 'must be a string or null');
  return value;
}

/** A whole number of at least 1 (a lifetime in minutes or hours). */
export function requireCount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new MailInputInvalid(field, 'must be a whole number of at least 1');
  return value;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 instant with its offset (Date.toISOString's form), as stored inputs carry dates. */
export function requireInstant(value: unknown, field: string): Date {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value) || Number.isNaN(Date.parse(value))) {
    throw new MailInputInvalid(field, 'must be an ISO 8601 instant such as 2030-01-31T14:00:00.000Z');
  }
  return new Date(value);
}

export function requireRole(value: unknown, field: string): Role {
  if (!isRole(value)) throw new MailInputInvalid(field, 'must be a role');
  return value;
}

const TOKEN = /^[0-9a-f]{64}$/;

/** A single-use token as the service issues them: 32 random bytes as 64 lowercase hex characters. */
export function requireToken(value: unknown, field: string): string {
  if (typeof value !== 'string' || !TOKEN.test(value)) throw new MailInputInvalid(field, 'must be 64 lowercase hex characters');
  return value;
}
