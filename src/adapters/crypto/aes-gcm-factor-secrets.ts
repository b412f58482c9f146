import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FactorSecrets } from '../../application/ports/factor-secrets';

/** MFA_ENCRYPTION_KEY's length: AES-256. */
export const FACTOR_KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

/** A key's id as stored beside what it sealed: the first bytes of its SHA-256, so the key itself is never named. */
export function factorKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/**
 * AES-256-GCM (node:crypto): `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url, a fresh 96-bit IV
 * per seal, the member's context as additional data. Seals with the first key, opens with any key
 * it holds whose id the text names (the others are keys being rotated out).
 */
export class AesGcmFactorSecrets implements FactorSecrets {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly sealingId: string;

  constructor(sealing: Buffer, ...previous: Buffer[]) {
    for (const key of [sealing, ...previous]) {
      if (key.length !== FACTOR_KEY_BYTES) throw new Error(`MFA encryption keys must be ${FACTOR_KEY_BYTES} bytes`);
    }
    this.sealingId = factorKeyId(sealing);
    this.keys = new Map([sealing, ...previous].map((key) => [factorKeyId(key), key]));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.sealingId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, this.sealingId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [format, keyId, iv, tag, body, ...rest] = sealed.split('.');
    const key = keyId === undefined ? undefined : this.keys.get(keyId);
    if (format !== FORMAT || !key || iv === undefined || tag === undefined || body === undefined || rest.length > 0) {
      throw new Error('A factor secret sealed by a key this instance does not hold');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
