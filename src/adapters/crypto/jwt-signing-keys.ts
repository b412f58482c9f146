import { createHash } from 'node:crypto';
import type { SigningKeyRecord } from '../../domain/signing-key-state';

/** One HS256 secret and the id (`kid`) that names it in a token's header. */
export interface JwtSigningKey {
  readonly id: string;
  readonly secret: string;
}

/**
 * The secrets an instance holds during a rotation (docs/operations.md, "Rotating the signing secret").
 * Only `signing` signs; `next` (the secret about to sign) and `previous` (the one being retired) only
 * verify, so a token signed by any instance at any step of a rolling change is accepted by all of them.
 */
export interface JwtKeySet {
  readonly signing: JwtSigningKey;
  readonly next?: JwtSigningKey | undefined;
  readonly previous?: JwtSigningKey | undefined;
}

/** What a key id may be: short, and plain enough to sit in a header and a log line unescaped. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The id of a secret given none: the first 8 hex digits of SHA-256("kid:" + secret). Stable, so every
 * instance holding the secret names it alike without being told, and it moves with the secret from
 * one variable to another during a rotation. It reveals nothing a token does not: any token signed
 * with the secret is already a test of a guess at it.
 */
export function derivedKeyId(secret: string): string {
  return createHash('sha256').update(`kid:${secret}`, 'utf8').digest('hex').slice(0, 8);
}

/** A key named by the id given, or by the derived one. */
export function jwtKey(secret: string, id?: string): JwtSigningKey {
  return { id: id ?? derivedKeyId(secret), secret };
}

/** The set by id and state, as the platform records it (never a secret). */
export function signingKeyRecords(keys: JwtKeySet): SigningKeyRecord[] {
  const records: SigningKeyRecord[] = [{ keyId: keys.signing.id, state: 'signing' }];
  if (keys.next) records.push({ keyId: keys.next.id, state: 'next' });
  if (keys.previous) records.push({ keyId: keys.previous.id, state: 'previous' });
  return records;
}
