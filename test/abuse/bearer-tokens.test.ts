import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, expectError, joinWithRole, signupOwner, type Account } from '../support/http-fixtures';
import { TEST_JWT_SECRET } from '../support/test-use-cases';
import { b64url, claimsFor, hmacToken, nowSeconds } from './abuse-support';

/**
 * One test per attack on the bearer token (docs/contract.md, "Authentication of protected routes", step 2: HS256 only, our secret, not expired).
 * Each forged token carries a real user's claims, or better ones, so only the check under attack
 * stands between it and a 200; each answer is the exact 401 of that section, on a route any role may call.
 */
describe('abuse: bearer tokens', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
  let owner: Account;
  let viewer: Account;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    owner = await signupOwner(app, 'Token Abuse');
    viewer = await joinWithRole(app, owner, 'viewer');
  });

  const me = (token: string) => request(app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`);
  const adminOnly = (token: string) => request(app).post(`${AUTH}/api-keys`).set('Authorization', `Bearer ${token}`);

  it('control: a token signed as the service signs is accepted (so every refusal below is the defence at work)', async () => {
    const res = await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner), TEST_JWT_SECRET));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner' });
  });

  it.each(['none', 'None', 'NONE', 'nOnE'])('alg %s: an unsigned token is refused with 401 Invalid or expired token', async (alg) => {
    const unsigned = `${b64url({ alg, typ: 'JWT' })}.${b64url(claimsFor(owner))}.`;
    expectError(await me(unsigned), 401, 'Invalid or expired token');
    // Nor does a signature rescue it: "none" with our own HS256 signature appended.
    const withSignature = `${unsigned}${hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner), TEST_JWT_SECRET).split('.')[2]}`;
    expectError(await me(withSignature), 401, 'Invalid or expired token');
  });

  it.each([['HS384', 'sha384'], ['HS512', 'sha512']] as const)('%s signed with the real secret: refused, only HS256 is accepted', async (alg, hash) => {
    expectError(await me(hmacToken({ alg, typ: 'JWT' }, claimsFor(owner), TEST_JWT_SECRET, hash)), 401, 'Invalid or expired token');
    expectError(await me(jwt.sign(claimsFor(owner), TEST_JWT_SECRET, { algorithm: alg })), 401, 'Invalid or expired token');
  });

  it.each(['RS256', 'ES256', 'PS256'])('%s header HMAC-signed with the secret as if it were the public key (algorithm confusion): refused', async (alg) => {
    expectError(await me(hmacToken({ alg, typ: 'JWT' }, claimsFor(owner), TEST_JWT_SECRET)), 401, 'Invalid or expired token');
  });

  it('wrong secret: an HS256 token signed with another key is refused', async () => {
    expectError(await me(jwt.sign(claimsFor(owner), 'another-secret-of-at-least-32-bytes!!', { algorithm: 'HS256' })), 401, 'Invalid or expired token');
    // Near misses of the real secret too: one byte short, one byte more, other case.
    for (const key of [TEST_JWT_SECRET.slice(0, -1), `${TEST_JWT_SECRET}x`, TEST_JWT_SECRET.toUpperCase()]) {
      expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner), key)), 401, 'Invalid or expired token');
    }
  });

  it('weak secrets: tokens signed with guessable secrets ("secret", "", "changeme", ...) are refused', async () => {
    for (const key of ['secret', '', 'changeme', 'password', 'jwt-secret', 'your-256-bit-secret']) {
      expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner), key)), 401, 'Invalid or expired token');
    }
  });

  it('key-injection headers (jwk, jku, kid, x5u): a token signed with the attacker\'s own key is refused', async () => {
    for (const extra of [{ jwk: { kty: 'oct', k: Buffer.from('attacker').toString('base64url') } }, { jku: 'https://evil.example/jwks.json' },
      { kid: '../../../../dev/null' }, { x5u: 'https://evil.example/cert.pem' }]) {
      expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT', ...extra }, claimsFor(owner), 'attacker')), 401, 'Invalid or expired token');
    }
  });

  it('expired: a genuinely signed token past its exp is refused', async () => {
    expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner, { exp: nowSeconds() - 1 }), TEST_JWT_SECRET)), 401, 'Invalid or expired token');
    const { exp: _exp, ...claims } = claimsFor(owner);
    expectError(await me(jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: -10 })), 401, 'Invalid or expired token');
  });

  it('no expiry, or not valid yet: a genuinely signed token without exp, or with nbf in the future, is refused', async () => {
    const { exp: _exp, ...forever } = claimsFor(owner);
    expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, forever, TEST_JWT_SECRET)), 401, 'Invalid or expired token');
    expectError(await me(hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner, { nbf: nowSeconds() + 3600 }), TEST_JWT_SECRET)), 401, 'Invalid or expired token');
  });

  it('over-long life: a genuinely signed token living longer than 24 h, or issued in the future, is refused', async () => {
    const sign = (extra: Record<string, unknown>) => hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsFor(owner, extra), TEST_JWT_SECRET);
    const now = nowSeconds();
    expectError(await me(sign({ iat: now, exp: now + 365 * 86_400 })), 401, 'Invalid or expired token');
    expectError(await me(sign({ iat: now - 2 * 86_400, exp: now + 3600 })), 401, 'Invalid or expired token');
    expectError(await me(sign({ iat: now + 3600, exp: now + 7200 })), 401, 'Invalid or expired token');
    expectError(await me(sign({ iat: 'now', exp: now + 3600 })), 401, 'Invalid or expired token');
    expectError(await me(sign({ exp: now + 30 * 86_400 })), 401, 'Invalid or expired token'); // no iat: exp - now counts
    // Control: the service's own shape, a day from iat, is accepted.
    expect((await me(sign({ iat: now, exp: now + 86_400 }))).status).toBe(200);
  });

  it('tampered payload: a viewer\'s real token with its role changed to owner (signature kept) is refused', async () => {
    const [header, , signature] = viewer.token.split('.');
    const claims = jwt.decode(viewer.token) as Record<string, unknown>;
    const escalated = `${header}.${b64url({ ...claims, role: 'owner' })}.${signature}`;
    expectError(await me(escalated), 401, 'Invalid or expired token');
    expectError(await adminOnly(escalated), 401, 'Invalid or expired token');
    // The same token unaltered still works, and its role is still refused the admin route.
    expectError(await adminOnly(viewer.token), 403, 'Requires admin role or higher');
  });

  it('tampered payload: another tenant\'s id spliced into a real token (signature kept) is refused', async () => {
    const other = await signupOwner(app, 'Token Abuse Other');
    const [header, , signature] = owner.token.split('.');
    const claims = jwt.decode(owner.token) as Record<string, unknown>;
    expectError(await me(`${header}.${b64url({ ...claims, tenantId: other.tenantId })}.${signature}`), 401, 'Invalid or expired token');
  });

  it('tampered header: a real token with its header swapped to another alg (signature kept) is refused', async () => {
    const [, payload, signature] = owner.token.split('.');
    for (const alg of ['none', 'HS512', 'RS256']) {
      expectError(await me(`${b64url({ alg, typ: 'JWT' })}.${payload}.${signature}`), 401, 'Invalid or expired token');
    }
  });

  it('truncated or extended signature: a real token cut short or with bytes appended is refused', async () => {
    expectError(await me(owner.token.slice(0, -1)), 401, 'Invalid or expired token');
    expectError(await me(`${owner.token}A`), 401, 'Invalid or expired token');
    expectError(await me(`${owner.token.split('.').slice(0, 2).join('.')}.`), 401, 'Invalid or expired token');
  });
});
