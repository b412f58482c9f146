import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { type JwtKeySet, derivedKeyId, jwtKey } from '../../src/adapters/crypto/jwt-signing-keys';
import { JwtTokenService as Service, TOKEN_ENTRY_BYTES } from '../../src/adapters/crypto/jwt-token-service';

const OLD = 'the-secret-being-rotated-out-of-service!';
const NEW = 'the-secret-now-signing-every-new-token!!';
const COMING = 'the-secret-that-will-sign-after-the-next';

/** A service signing with `secret` (its derived id), verifying with `previous` too when given. */
class JwtTokenService extends Service {
  constructor(secret: string, previous?: string) {
    super({ signing: jwtKey(secret), previous: previous === undefined ? undefined : jwtKey(previous) });
  }
}
const claims = { tenantId: 't', userId: 'u', email: 'e@example.com', role: 'admin' };

describe('JwtTokenService', () => {
  it('signs HS256 tokens with a 24 hour expiry, naming the signing key in the header (V11.2.2)', () => {
    const token = new JwtTokenService(NEW).issue(claims);
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    expect(decoded.header.kid).toBe(derivedKeyId(NEW));
    expect(jwt.decode(new Service({ signing: jwtKey(NEW, '2026-11') }).issue(claims), { complete: true })!.header.kid).toBe('2026-11');
    const payload = decoded.payload as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(24 * 3600);
  });

  it('keeps tokens of the previous secret valid during a rotation, and signs only with the new one', () => {
    const before = new JwtTokenService(OLD).issue(claims);
    const rotating = new JwtTokenService(NEW, OLD);
    expect(rotating.verify(before)).toEqual(claims);
    const after = rotating.issue(claims);
    expect(new JwtTokenService(NEW).verify(after)).toEqual(claims);
    expect(new JwtTokenService(OLD).verify(after)).toBeNull();
    // Once the rotation is over, the old secret's tokens stop working.
    expect(new JwtTokenService(NEW).verify(before)).toBeNull();
  });

  it('refuses an expired token of the previous secret too', () => {
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, OLD, { algorithm: 'HS256' });
    expect(new JwtTokenService(NEW, OLD).verify(expired)).toBeNull();
  });

  describe('a validly signed token that promises more than the service grants', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const DAY = 24 * 3600;
    // noTimestamp drops iat altogether; otherwise jsonwebtoken keeps the iat it is given.
    const sign = (payload: { iat?: number; exp: number }) =>
      jwt.sign({ ...claims, ...payload }, NEW, { algorithm: 'HS256', noTimestamp: payload.iat === undefined });

    it('is refused when exp - iat exceeds the 24 h lifetime beyond a minute of clock skew', () => {
      const service = new JwtTokenService(NEW);
      expect(service.verify(sign({ iat: now(), exp: now() + DAY + 61 }))).toBeNull();
      expect(service.verify(sign({ iat: now() - DAY, exp: now() + 3600 }))).toBeNull(); // not yet expired, but 25 h long
      expect(service.verify(sign({ iat: now(), exp: now() + 10 * 365 * DAY }))).toBeNull();
      expect(service.verify(sign({ iat: now(), exp: now() + DAY + 30 }))).toEqual(claims); // within the skew
    });

    it('is refused when its iat lies in the future beyond the skew', () => {
      const service = new JwtTokenService(NEW);
      expect(service.verify(sign({ iat: now() + 600, exp: now() + 3600 }))).toBeNull();
      expect(service.verify(sign({ iat: now() + 30, exp: now() + 3600 }))).toEqual(claims);
    });

    it('without iat, is refused when exp lies more than the lifetime (plus skew) ahead', () => {
      const service = new JwtTokenService(NEW);
      expect(service.verify(sign({ exp: now() + 2 * DAY }))).toBeNull();
      expect(service.verify(sign({ exp: now() + DAY - 60 }))).toEqual(claims);
    });
  });

  it('refuses signed tokens whose claims are missing or of the wrong type', () => {
    const service = new JwtTokenService(NEW);
    for (const bad of [{ ...claims, userId: undefined }, { ...claims, role: 4 }, { ...claims, tenantId: null }]) {
      expect(service.verify(jwt.sign(bad, NEW, { algorithm: 'HS256', expiresIn: '1h' }))).toBeNull();
    }
  });

  it('refuses a token once it expires, even one it has already verified', () => {
    const service = new JwtTokenService(NEW);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = jwt.sign({ ...claims, exp }, NEW, { algorithm: 'HS256' });
    expect(service.verify(token)).toEqual(claims);
    expect(service.verify(token)).toEqual(claims);
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(exp * 1000 - 1);
      expect(service.verify(token)).toEqual(claims);
      now.mockReturnValue(exp * 1000);
      expect(service.verify(token)).toBeNull();
      expect(service.verify(token)).toBeNull(); // and stays refused once forgotten
    } finally {
      now.mockRestore();
    }
  });

  it('never takes a token for a verified one it resembles: same claims, another signature', () => {
    const service = new JwtTokenService(NEW);
    const token = service.issue(claims);
    expect(service.verify(token)).toEqual(claims);
    const [header, payload] = token.split('.');
    expect(service.verify(`${header}.${payload}.${'A'.repeat(43)}`)).toBeNull();
    expect(service.verify(jwt.sign(claims, OLD, { algorithm: 'HS256', expiresIn: '1h' }))).toBeNull();
  });

  it('remembers verified tokens within its memory budget, the least recently used going first, and verifies the others again', () => {
    const perToken = TOKEN_ENTRY_BYTES + claims.tenantId.length + claims.userId.length + claims.email.length + claims.role.length;
    const service = new Service({ signing: jwtKey(NEW) }, { memoryBytes: 10 * perToken });
    const tokens = Array.from({ length: 30 }, (_, n) => service.issue({ ...claims, authVersion: n }));
    for (const token of tokens) expect(service.verify(token)).toEqual({ ...claims, authVersion: tokens.indexOf(token) });
    expect(service.remembered).toEqual({ entries: 10, bytes: 10 * perToken });
    // The first twenty were let go: still valid, checked again in full, and each pushes out another.
    expect(service.verify(tokens[0]!)).toEqual({ ...claims, authVersion: 0 });
    expect(service.expiresAt(tokens[1]!)).toEqual(new Date((jwt.decode(tokens[1]!) as jwt.JwtPayload).exp! * 1000));
    expect(service.remembered.entries).toBe(10);
  });

  it('answers a remembered token only for that exact token: one character changed anywhere is verified in full and refused (V9.1.1)', () => {
    const service = new JwtTokenService(NEW);
    const token = service.issue(claims);
    expect(service.verify(token)).toEqual(claims);
    for (let i = 0; i < token.length; i += 7) {
      const altered = `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;
      expect(service.verify(altered)).toBeNull();
    }
    expect(service.verify(`${token} `)).toBeNull();
    expect(service.verify(token)).toEqual(claims);
  });

  it('answers each of more tokens in use than its front of hot tokens has slots as itself, however their signatures collide', () => {
    const service = new JwtTokenService(NEW);
    const tokens = Array.from({ length: 3_000 }, (_, n) => service.issue({ ...claims, authVersion: n }));
    for (let round = 0; round < 3; round++) {
      tokens.forEach((token, n) => expect(service.verify(token)?.authVersion).toBe(n));
    }
    // A token sent again and again, between forgeries aimed at its slot (its signature's end kept).
    const token = tokens[0]!;
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'owner', exp: 9_999_999_999 })).toString('base64url')}.${signature}`;
    for (let n = 0; n < 3; n++) {
      expect(service.verify(forged)).toBeNull();
      expect(service.verify(token)).toEqual({ ...claims, authVersion: 0 });
    }
  });
});

/** OWASP ASVS 5.0 V11.2.2: keys that rotate, each named by an id, without signing anyone out. */
describe('JwtTokenService with rotating keys (V11.2.2)', () => {
  const old = jwtKey(OLD, 'old');
  const current = jwtKey(NEW, 'current');
  const coming = jwtKey(COMING, 'coming');
  const all: JwtKeySet = { signing: current, next: coming, previous: old };
  const now = () => Math.floor(Date.now() / 1000);
  /** A token as another instance or a tool would sign it: any header, this secret. */
  const signed = (secret: string, header: Record<string, unknown>) =>
    jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: '1h', header: header as unknown as jwt.JwtHeader });

  it('the derived id is the first 8 hex of SHA-256("kid:" + secret), stable across instances', () => {
    expect(derivedKeyId(NEW)).toBe(createHash('sha256').update(`kid:${NEW}`).digest('hex').slice(0, 8));
    expect(derivedKeyId(NEW)).not.toBe(derivedKeyId(OLD));
    expect(new Service({ signing: jwtKey(NEW) }).keyIds.signing).toBe(derivedKeyId(NEW));
  });

  it('picks the key a token names: each key verifies its own tokens, and no other key is tried', () => {
    const service = new Service(all);
    for (const key of [old, current, coming]) {
      expect(service.verify(signed(key.secret, { alg: 'HS256', kid: key.id }))).toEqual(claims);
    }
    // Signed with a key the instance holds, but naming another one it holds: refused.
    expect(service.verify(signed(OLD, { alg: 'HS256', kid: 'current' }))).toBeNull();
    expect(service.verify(signed(COMING, { alg: 'HS256', kid: 'old' }))).toBeNull();
  });

  it('checks a token without kid (the contract\'s, and every earlier token) against every key held', () => {
    const service = new Service(all);
    for (const secret of [OLD, NEW, COMING]) expect(service.verify(signed(secret, { alg: 'HS256', typ: 'JWT' }))).toEqual(claims);
    expect(service.verify(signed('a-secret-this-instance-has-never-held!!!', { alg: 'HS256' }))).toBeNull();
  });

  it('refuses a token naming a kid it does not hold, or a kid that is not a string', () => {
    const service = new Service(all);
    expect(service.verify(signed(NEW, { alg: 'HS256', kid: 'unknown' }))).toBeNull();
    expect(service.verify(signed(NEW, { alg: 'HS256', kid: '' }))).toBeNull();
    expect(service.verify(signed(NEW, { alg: 'HS256', kid: '__proto__' }))).toBeNull();
    expect(service.verify(signed(NEW, { alg: 'HS256', kid: 7 }))).toBeNull();
    expect(service.verify(signed(NEW, { alg: 'HS256', kid: ['current'] }))).toBeNull();
  });

  it('verifies with NEXT and PREVIOUS but signs only with the signing key', () => {
    const service = new Service(all);
    expect(service.keyIds).toEqual({ signing: 'current', verifying: ['current', 'coming', 'old'] });
    const token = service.issue(claims);
    expect(jwt.decode(token, { complete: true })!.header.kid).toBe('current');
    expect(() => jwt.verify(token, NEW, { algorithms: ['HS256'] })).not.toThrow();
    expect(new Service({ signing: coming, previous: old }).verify(token)).toBeNull();
    expect(new Service({ signing: old }).verify(token)).toBeNull();
  });

  it('refuses forged tokens naming a held kid: alg none, RS256, HS512', () => {
    const service = new Service(all);
    const body = Buffer.from(JSON.stringify({ ...claims, iat: now(), exp: now() + 3600 })).toString('base64url');
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString('base64url');
    expect(service.verify(`${header({ alg: 'none', kid: 'current' })}.${body}.`)).toBeNull();
    expect(service.verify(`${header({ alg: 'none', typ: 'JWT' })}.${body}.`)).toBeNull();
    const rs256 = `${header({ alg: 'RS256', kid: 'current' })}.${body}`;
    expect(service.verify(`${rs256}.${Buffer.from('x'.repeat(256)).toString('base64url')}`)).toBeNull();
    expect(service.verify(jwt.sign(claims, NEW, { algorithm: 'HS512', expiresIn: '1h', keyid: 'current' }))).toBeNull();
  });

  it('refuses an unreadable header without throwing', () => {
    const service = new Service(all);
    for (const token of ['', 'abc', '.x.y', `${Buffer.from('not json').toString('base64url')}.e30.x`, `${Buffer.from('null').toString('base64url')}.e30.x`]) {
      expect(service.verify(token)).toBeNull();
    }
  });

  it('an instance started without a retired key refuses its tokens, even ones an instance holding it had verified', () => {
    const rotating = new Service({ signing: current, previous: old });
    const byOld = new Service({ signing: old }).issue(claims);
    const byOldWithoutKid = signed(OLD, { alg: 'HS256' });
    expect(rotating.verify(byOld)).toEqual(claims);
    expect(rotating.verify(byOldWithoutKid)).toEqual(claims);
    const retired = new Service({ signing: current });
    expect(retired.verify(byOld)).toBeNull();
    expect(retired.verify(byOldWithoutKid)).toBeNull();
  });

  it('refuses a key set whose ids or secrets repeat (a kid must name one key)', () => {
    expect(() => new Service({ signing: current, previous: jwtKey(OLD, 'current') })).toThrow(/distinct ids/);
    expect(() => new Service({ signing: current, next: jwtKey(NEW, 'other') })).toThrow(/distinct secrets/);
  });
});
