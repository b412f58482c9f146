import { createHmac } from 'node:crypto';
import type { Account } from '../support/http-fixtures';

/** Helpers for forging what an attacker would send: raw JWS with any header, HMAC'd with any key. */

export const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The claims this service puts in a token, for a real account, valid for an hour unless overridden. */
export function claimsFor(account: Account, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { tenantId: account.tenantId, userId: account.userId, email: account.email, role: account.role, exp: nowSeconds() + 3600, ...overrides };
}

/** A compact JWS whose header says whatever `header` says, signed with HMAC-`hash` under `key`. */
export function hmacToken(header: Record<string, unknown>, payload: unknown, key: string, hash: 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${createHmac(hash, key).update(input).digest('base64url')}`;
}
