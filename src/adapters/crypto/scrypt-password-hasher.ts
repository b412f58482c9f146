import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../application/ports/password-hasher';

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * The smallest-memory of the OWASP Password Storage Cheat Sheet's equivalent scrypt settings (N=2^17
 * r=8 p=1, 2^16/2, 2^15/3, 2^14/5, 2^13/10): the same work in 8 MiB a hash instead of 128 MiB, so
 * concurrent logins on a small instance do not exhaust memory, and no slower than N=2^14, p=5
 * (`npx tsx scripts/scrypt-parameters.ts`). Hashes made at other parameters still verify, and are
 * remade at these on the next successful login (needsRehash).
 */
export const OWASP_SCRYPT: ScryptParameters = { N: 2 ** 13, r: 8, p: 10 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const SCHEME = 'scrypt';

function scryptAsync(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  // Room for the 128*N*r bytes scrypt needs plus its working set; Node's 32 MiB default is too tight above N=2^14.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64 parts: the parameters travel with the hash so they can be raised later. */
function encode(params: ScryptParameters, salt: Buffer, key: Buffer): string {
  return [SCHEME, params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function decode(stored: string): { params: ScryptParameters; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!Number.isSafeInteger(N) || !Number.isSafeInteger(r) || !Number.isSafeInteger(p)) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || key.length === 0) return null;
  return { params: { N: N!, r: r!, p: p! }, salt, key };
}

/** Salted scrypt on libuv's thread pool: hashing never blocks the event loop. */
export class ScryptPasswordHasher implements PasswordHasher {
  constructor(private readonly params: ScryptParameters = OWASP_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    return encode(this.params, salt, await scryptAsync(password, salt, this.params));
  }

  async verify(password: string, storedHash: string): Promise<boolean> {
    const decoded = decode(storedHash);
    if (!decoded) return false;
    let candidate: Buffer;
    try {
      candidate = await scryptAsync(password, decoded.salt, decoded.params);
    } catch {
      return false; // parameters scrypt refuses: the stored value cannot match anything
    }
    return candidate.length === decoded.key.length && timingSafeEqual(candidate, decoded.key);
  }

  needsRehash(storedHash: string): boolean {
    const decoded = decode(storedHash);
    if (!decoded) return true;
    const { N, r, p } = decoded.params;
    return N !== this.params.N || r !== this.params.r || p !== this.params.p || decoded.key.length !== KEY_BYTES;
  }
}
