import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { AuthenticatorCodes } from '../../application/ports/authenticator-codes';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
/** Steps either side of now that a code may come from: an app's clock a little off, a code typed at a step's end. */
const DRIFT_STEPS = 1;
/** RFC 4226 recommends at least 128 bits; 160 is what SHA-1's block suits and what apps expect. */
const SECRET_BYTES = 20;

/** TOTP (RFC 6238) with the otpauth library, at the parameters every authenticator app supports. */
export class OtpauthAuthenticatorCodes implements AuthenticatorCodes {
  newSecret(): string {
    return new Secret({ buffer: randomBytes(SECRET_BYTES).buffer }).base32;
  }

  uri(secret: string, issuer: string, account: string): string {
    return this.totp(secret, issuer, account).toString();
  }

  matchingStep(secret: string, code: string, at: Date): number | null {
    const totp = this.totp(secret);
    const delta = totp.validate({ token: code, timestamp: at.getTime(), window: DRIFT_STEPS });
    return delta === null ? null : totp.counter({ timestamp: at.getTime() }) + delta;
  }

  private totp(secret: string, issuer = '', label = 'OTPAuth'): TOTP {
    return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS });
  }
}
