import { Secret, TOTP } from 'otpauth';
import { AesGcmFactorSecrets } from '../../src/adapters/crypto/aes-gcm-factor-secrets';
import { OtpauthAuthenticatorCodes } from '../../src/adapters/crypto/otpauth-authenticator-codes';
import { base32OfHex, formatRecoveryCode, normalizeRecoveryCode } from '../../src/domain/second-factor';
import { mfaKeyOf } from '../../src/bootstrap/config';
import { TestClock } from '../../src/testing/test-clock';

const codes = new OtpauthAuthenticatorCodes();
const codeAt = (secret: string, at: Date) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

describe('authenticator-app codes (TOTP, RFC 6238)', () => {
  // V6.5.1 / V6.6.x: 30-second steps, one step of drift either side, nothing further.
  it('accepts the current step and one either side, names the step, and refuses two steps away', () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:15.000Z'));
    const secret = codes.newSecret();
    const now = clock.now();
    const step = Math.floor(now.getTime() / 30_000);
    expect(codes.matchingStep(secret, codeAt(secret, now), now)).toBe(step);
    expect(codes.matchingStep(secret, codeAt(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(codes.matchingStep(secret, codeAt(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    const farAway = codeAt(secret, new Date(now.getTime() + 60_000));
    const inWindow = [-30_000, 0, 30_000].map((d) => codeAt(secret, new Date(now.getTime() + d)));
    if (!inWindow.includes(farAway)) expect(codes.matchingStep(secret, farAway, now)).toBeNull();
    clock.advance({ minutes: 2 });
    expect(codes.matchingStep(secret, codeAt(secret, now), clock.now())).toBeNull();
  });

  it('makes 160-bit base32 secrets and a URI an app reads, naming issuer and account', () => {
    const secret = codes.newSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(codes.newSecret()).not.toBe(secret);
    const uri = codes.uri(secret, 'Acme Corp', 'ada@example.com');
    expect(uri).toBe(`otpauth://totp/Acme%20Corp:ada%40example.com?issuer=Acme%20Corp&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
  });
});

describe('factor secrets at rest (AES-256-GCM)', () => {
  const key = Buffer.alloc(32, 7);
  const sealer = new AesGcmFactorSecrets(key);

  it('seals with a fresh IV and the key id, opens only for the same member, and with a rotated-out key', () => {
    const sealed = sealer.seal('JBSWY3DPEHPK3PXP', 'totp:t:u');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealer.seal('JBSWY3DPEHPK3PXP', 'totp:t:u')).not.toBe(sealed);
    expect(sealer.open(sealed, 'totp:t:u')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => sealer.open(sealed, 'totp:t:someone-else')).toThrow();
    expect(() => new AesGcmFactorSecrets(Buffer.alloc(32, 9)).open(sealed, 'totp:t:u')).toThrow();
    expect(new AesGcmFactorSecrets(Buffer.alloc(32, 9), key).open(sealed, 'totp:t:u')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('MFA_ENCRYPTION_KEY is 32 bytes as hex or base64, nothing else', () => {
    expect(mfaKeyOf('07'.repeat(32))).toEqual(key);
    expect(mfaKeyOf(key.toString('base64'))).toEqual(key);
    expect(mfaKeyOf(key.toString('base64url'))).toEqual(key);
    expect(mfaKeyOf('too short')).toBeUndefined();
    expect(mfaKeyOf(Buffer.alloc(16).toString('base64'))).toBeUndefined();
  });
});

describe('recovery codes as typed', () => {
  // V6.5.2: 24 base32 characters carry 120 bits, above the 112 below which a password hash is needed.
  it('are 24 base32 characters (120 bits) in groups of four; case, dashes and spaces do not matter', () => {
    const plain = base32OfHex('ff'.repeat(15));
    expect(plain).toBe('7'.repeat(24));
    const shown = formatRecoveryCode(base32OfHex('0123456789abcdef0123456789abcd'));
    expect(shown).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
    expect(normalizeRecoveryCode(shown.toUpperCase().replace(/-/g, ' '))).toBe(shown.replace(/-/g, ''));
    expect(normalizeRecoveryCode('abcd-efgh')).toBeNull();
    expect(normalizeRecoveryCode(42)).toBeNull();
  });
});
