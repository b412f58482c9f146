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
