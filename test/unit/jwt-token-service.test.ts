import jwt from 'jsonwebtoken';
import { JwtTokenService } from '../../src/adapters/crypto/jwt-token-service';

const OLD = 'the-secret-being-rotated-out-of-service!';
const NEW = 'the-secret-now-signing-every-new-token!!';
const claims = { tenantId: 't', userId: 'u', email: 'e@example.com', role: 'admin' };

describe('JwtTokenService', () => {
  it('signs HS256 tokens with a 24 hour expiry', () => {
    const token = new JwtTokenService(NEW).issue(claims);
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
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
});
