import { createHash } from 'node:crypto';
import { jwtKey } from '../../src/adapters/crypto/jwt-signing-keys';
import { DEVICE_PROOF_LIFETIME_SECONDS, HmacDeviceProofs } from '../../src/adapters/crypto/hmac-device-proofs';
import { TestClock } from '../../src/testing/test-clock';

const SECRET = 'the-secret-signing-tokens-and-device-proofs';
const OTHER_SECRET = 'another-service-entirely-with-its-own-secret';
const account = (email: string) => createHash('sha256').update(email).digest('hex');
const OWNER = account('owner@example.com');
const SOMEONE_ELSE = account('someone.else@example.com');

/** The same proof with one character of the given part changed. */
function tampered(value: string, part: 1 | 2 | 3): string {
  const parts = value.split('.');
  const text = parts[part]!;
  const last = text.at(-2) === 'A' ? 'B' : 'A'; // not the last character: base64url's last one may carry unused bits
  parts[part] = `${text.slice(0, -2)}${last}${text.at(-1)}`;
  return parts.join('.');
}

// ASVS 5.0 V6.3.1: the proof a known device shows the login throttle must not be forgeable, nor
// usable for another account, nor forever.
describe('HmacDeviceProofs', () => {
  it('issues v1.<device>.<expiry>.<signature> for a random device, 90 days long, naming no address', () => {
    const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
    const proofs = new HmacDeviceProofs([SECRET], clock);
    const first = proofs.issue(OWNER);
    const second = proofs.issue(OWNER);
    expect(first.value).toMatch(/^v1\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(first.deviceId).not.toBe(second.deviceId);
    expect(first.expiresAt).toEqual(new Date('2026-04-01T00:00:00Z'));
    expect(DEVICE_PROOF_LIFETIME_SECONDS).toBe(90 * 86_400);
    expect(first.value).not.toContain(OWNER);
    expect(proofs.verify(first.value, OWNER)).toBe(first.deviceId);
  });

  it('refreshes a proof for the same device with a new expiry', () => {
    const clock = new TestClock();
    const proofs = new HmacDeviceProofs([SECRET], clock);
    const first = proofs.issue(OWNER);
    clock.advance({ days: 30 });
    const refreshed = proofs.issue(OWNER, first.deviceId);
    expect(refreshed.deviceId).toBe(first.deviceId);
    expect(refreshed.expiresAt.getTime() - first.expiresAt.getTime()).toBe(30 * 86_400_000);
    expect(proofs.verify(refreshed.value, OWNER)).toBe(first.deviceId);
  });

  it('refuses a proof once it has expired', () => {
    const clock = new TestClock();
    const proofs = new HmacDeviceProofs([SECRET], clock, 3_600);
    const proof = proofs.issue(OWNER);
    clock.advance({ seconds: 3_599 });
    expect(proofs.verify(proof.value, OWNER)).toBe(proof.deviceId);
    clock.advance({ seconds: 1 });
    expect(proofs.verify(proof.value, OWNER)).toBeNull();
  });

  it("refuses another account's proof: it buys nothing on any account but its own", () => {
    const proofs = new HmacDeviceProofs([SECRET], new TestClock());
    expect(proofs.verify(proofs.issue(SOMEONE_ELSE).value, OWNER)).toBeNull();
  });

  it('refuses a tampered device id, expiry or signature, and anything not shaped as a proof', () => {
    const clock = new TestClock();
    const proofs = new HmacDeviceProofs([SECRET], clock);
    const { value } = proofs.issue(OWNER);
    for (const part of [1, 2, 3] as const) expect(proofs.verify(tampered(value, part), OWNER)).toBeNull();
    const [, id, expiry, signature] = value.split('.');
    const later = Number(expiry) + 86_400 * 365;
    for (const malformed of [
      '', 'v1', `v2.${id}.${expiry}.${signature}`, `v1.${id}.${later}.${signature}`, `v1.${id}.0${expiry}.${signature}`,
      `${value}.`, ` ${value}`, `${value}=`, `v1.${id}.${expiry}.${signature}${signature}`, 'x'.repeat(10_000),
    ]) {
      expect(proofs.verify(malformed, OWNER)).toBeNull();
    }
  });

  it("refuses a proof signed with another service's secret", () => {
    const clock = new TestClock();
    const ours = new HmacDeviceProofs([SECRET], clock);
    const theirs = new HmacDeviceProofs([OTHER_SECRET], clock);
    expect(ours.verify(theirs.issue(OWNER).value, OWNER)).toBeNull();
  });

  it('keeps a device known through a rotation of the signing secret, until the old secret is removed', () => {
    const clock = new TestClock();
    const before = HmacDeviceProofs.fromKeySet({ signing: jwtKey(SECRET) }, clock).issue(OWNER);
    const rotating = HmacDeviceProofs.fromKeySet({ signing: jwtKey(OTHER_SECRET), previous: jwtKey(SECRET) }, clock);
    expect(rotating.verify(before.value, OWNER)).toBe(before.deviceId);
    const after = rotating.issue(OWNER, before.deviceId);
    expect(HmacDeviceProofs.fromKeySet({ signing: jwtKey(OTHER_SECRET) }, clock).verify(after.value, OWNER)).toBe(before.deviceId);
    expect(HmacDeviceProofs.fromKeySet({ signing: jwtKey(OTHER_SECRET) }, clock).verify(before.value, OWNER)).toBeNull();
  });
});
