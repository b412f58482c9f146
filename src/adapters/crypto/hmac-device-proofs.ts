import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../application/ports/clock';
import type { DeviceProof, DeviceProofs } from '../../application/ports/device-proofs';
import type { JwtKeySet } from './jwt-signing-keys';

/** How long a device stays known without signing in again: each sign-in refreshes its proof. */
export const DEVICE_PROOF_LIFETIME_SECONDS = 90 * 24 * 60 * 60;

/** 128 random bits, base64url. */
const DEVICE_ID_BYTES = 16;
/** `v1.<22 base64url: device id>.<expiry, unix seconds>.<43 base64url: HMAC-SHA256>`; anything else is not a proof. */
const PROOF_PATTERN = /^v1\.([A-Za-z0-9_-]{22})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
/** Longer than any proof: refused before the pattern is tried. */
const MAX_PROOF_LENGTH = 100;

/**
 * The key for proofs made from one signing secret: HMAC(secret, "device-proof"). A key of its own
 * purpose, so a device proof can never be taken for a bearer token's signature nor the reverse.
 */
function proofKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('device-proof', 'utf8').digest();
}

/**
 * Device proofs signed with HMAC-SHA256 under keys derived from the token signing secrets. The
 * signature covers the device id, the expiry and the account key, so the account key is never in
 * the proof itself yet a proof for one account is worthless for another. The signing secret signs;
 * every secret the instance holds during a rotation (next, previous) also verifies, so a known
 * device stays known through a rolling change of the secret, and a removed secret's proofs end.
 */
export class HmacDeviceProofs implements DeviceProofs {
  private readonly keys: readonly Buffer[];

  constructor(
    secrets: readonly [signing: string, ...verifying: string[]],
    private readonly clock: Clock,
    private readonly lifetimeSeconds: number = DEVICE_PROOF_LIFETIME_SECONDS,
  ) {
    this.keys = secrets.map(proofKey);
  }

  /** From the token signing keys: the signing secret signs, next and previous also verify. */
  static fromKeySet(keys: JwtKeySet, clock: Clock, lifetimeSeconds?: number): HmacDeviceProofs {
    const verifying = [keys.next, keys.previous].flatMap((key) => (key ? [key.secret] : []));
    return new HmacDeviceProofs([keys.signing.secret, ...verifying], clock, lifetimeSeconds);
  }

  issue(accountKey: string, deviceId?: string): DeviceProof {
    const id = deviceId ?? randomBytes(DEVICE_ID_BYTES).toString('base64url');
    const expiry = Math.floor(this.clock.now().getTime() / 1000) + this.lifetimeSeconds;
    const signature = sign(this.keys[0]!, id, expiry, accountKey);
    return { value: `v1.${id}.${expiry}.${signature.toString('base64url')}`, deviceId: id, expiresAt: new Date(expiry * 1000) };
  }

  verify(value: string, accountKey: string): string | null {
    if (value.length > MAX_PROOF_LENGTH) return null;
    const match = PROOF_PATTERN.exec(value);
    if (!match) return null;
    const [, id, expiryText, signatureText] = match as unknown as [string, string, string, string];
    const expiry = Number(expiryText);
    if (expiry * 1000 <= this.clock.now().getTime()) return null;
    const given = Buffer.from(signatureText, 'base64url');
    // Every key is tried, so the time taken does not tell which one (if any) signed it.
    let valid = false;
    for (const key of this.keys) {
      const expected = sign(key, id, expiry, accountKey);
      if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
    }
    return valid ? id : null;
  }
}

function sign(key: Buffer, deviceId: string, expiry: number, accountKey: string): Buffer {
  return createHmac('sha256', key).update(`v1.${deviceId}.${expiry}.${accountKey}`, 'utf8').digest();
}
