import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { Account } from '../support/http-fixtures';
import { anyJson, headerChar, headerValue, shortNastyString } from './arbitraries';

/**
 * Credentials for the protected routes: the real ones a suite sets up, and every way we know of to
 * forge, bend or garble a bearer token or an API key. Whatever a forged credential contains, the authentication of protected routes (docs/contract.md)
 * must answer 401; the expected message follows from the headers alone (expectedRefusal).
 */

export interface RealCredentials {
  readonly secret: string;
  readonly accounts: readonly Account[];
  readonly apiKeys: readonly string[];
}

/** The two credential headers; undefined means not sent. */
export interface CredentialHeaders {
  readonly apiKey?: string | undefined;
  readonly authorization?: string | undefined;
}

export function credentialHeaders(credentials: CredentialHeaders): Record<string, string> {
  return {
    ...(credentials.authorization !== undefined ? { authorization: credentials.authorization } : {}),
    ...(credentials.apiKey !== undefined ? { 'x-api-key': credentials.apiKey } : {}),
  };
}

/** HTTP drops a header value's leading and trailing spaces and tabs: what the server sees. */
export function asReceived(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Part 5, step by step, for credentials known not to be valid: the one message the refusal must carry. */
export function expectedRefusal(credentials: CredentialHeaders): string {
  if (credentials.apiKey !== undefined) {
    const key = asReceived(credentials.apiKey);
    return key.length === 37 && key.startsWith('pcls_') ? 'Invalid API key' : 'Invalid API key format';
  }
  if (credentials.authorization !== undefined && asReceived(credentials.authorization).startsWith('Bearer ')) {
    return 'Invalid or expired token';
  }
  return 'Missing authentication';
}

const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A JWS over the exact JSON given, HMAC'd with `secret` whatever the header claims. */
export function hmacJwt(header: unknown, payload: unknown, secret: string, hash: 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}

export function claimsOf(account: Account): Record<string, string> {
  return { tenantId: account.tenantId, userId: account.userId, email: account.email, role: account.role };
}

const ROLE_NAMES = ['owner', 'admin', 'member', 'viewer'] as const;
const future = fc.integer({ min: 3600, max: 10 * 365 * 86_400 }).map((ahead) => nowSeconds() + ahead);
const past = fc.integer({ min: 5, max: 10 * 365 * 86_400 }).map((ago) => nowSeconds() - ago);
/** Within the service's own 24 h lifetime (a token it could have issued). */
const withinADay = fc.integer({ min: 60, max: 86_000 }).map((ahead) => nowSeconds() + ahead);
/** The service's token lifetime and the clock skew it allows beyond it. */
const LIFETIME_SECONDS = 86_400;
const SKEW_SECONDS = 60;
const base64urlPart: fc.Arbitrary<string> = fc.oneof(
  fc.base64String({ maxLength: 80 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.base64String({ maxLength: 80 }), // padding and +/ : standard base64, not base64url
  anyJson.map((value) => b64url(JSON.stringify(value))),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.=+/ '.split('')), maxLength: 40 }),
);

/** Signed with anything but our secret, or not signed as HS256, or expired, or altered after signing. */
export function forgedTokens(real: RealCredentials): fc.Arbitrary<string> {
  const claims = fc.constantFrom(...real.accounts).map(claimsOf);
  // The claims an attacker would want: a real user, any role, a long life.
  const wanted = fc.tuple(claims, fc.constantFrom(...ROLE_NAMES), future).map(([c, role, exp]) => ({ ...c, role, exp }));
  const wrongSecret = fc.oneof(
    fc.constantFrom('secret', '', 'changeme', 'password', 'jwt-secret', 'your-256-bit-secret', 'test-secret',
      `${real.secret} `, real.secret.slice(0, -1), real.secret.toUpperCase(), `${real.secret}x`),
    shortNastyString,
  ).filter((secret) => secret !== real.secret);
  const genuine = fc.constantFrom(...real.accounts.map((account) => account.token));
  return fc.oneof(
    // alg none, in any spelling, with no signature or any signature at all.
    fc.tuple(fc.constantFrom('none', 'None', 'NONE', 'nOnE'), wanted, fc.oneof(fc.constant(''), base64urlPart))
      .map(([alg, payload, signature]) => `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.${signature}`),
    // Other HMAC algorithms, correctly signed with our own secret.
    fc.tuple(fc.constantFrom(['HS384', 'sha384'] as const, ['HS512', 'sha512'] as const), wanted)
      .map(([[alg, hash], payload]) => hmacJwt({ alg, typ: 'JWT' }, payload, real.secret, hash)),
    // Asymmetric algorithms HMAC'd with the secret, as if it were the public key (key confusion).
    fc.tuple(fc.constantFrom('RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'PS256', 'EdDSA', 'hs256', 'HS256 ', ''), fc.constantFrom('sha256', 'sha384', 'sha512') as fc.Arbitrary<'sha256' | 'sha384' | 'sha512'>, wanted)
      .map(([alg, hash, payload]) => hmacJwt({ alg, typ: 'JWT' }, payload, real.secret, hash)),
    // HS256 under a guessed or near-miss secret, some with key-pointing headers an attacker controls.
    fc.tuple(wrongSecret, wanted, fc.constantFrom({}, { kid: '../../../../dev/null' }, { jku: 'https://evil.example/jwks.json' },
      { jwk: { kty: 'oct', k: b64url('secret') } }, { x5u: 'https://evil.example/cert.pem' }))
      .map(([secret, payload, extra]) => hmacJwt({ alg: 'HS256', typ: 'JWT', ...extra }, payload, secret)),
    // Our secret, but expired or not valid yet.
    fc.tuple(claims, past).map(([c, exp]) => hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...c, exp }, real.secret)),
    fc.tuple(claims, future).map(([c, nbf]) => hmacJwt({ alg: 'HS256', typ: 'JWT' }, { ...c, nbf, exp: nbf + 86_400 }, real.secret)),
    // A genuine token with its payload or header replaced, the signature kept.
    fc.tuple(genuine, wanted).map(([token, payload]) => {
      const [header, , signature] = token.split('.');
      return `${header}.${b64url(JSON.stringify(payload))}.${signature}`;
    }),
    fc.tuple(genuine, fc.constantFrom('none', 'HS512', 'RS256')).map(([token, alg]) => {
      const [, payload, signature] = token.split('.');
      return `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${payload}.${signature}`;
    }),
    // A genuine token cut, extended or with one character changed.
    fc.tuple(genuine, fc.nat(), headerChar.filter((c) => c.trim() !== '')).map(([token, at, c]) => {
      const i = at % token.length;
      return token[i] === c ? `${token}${c}` : `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
    }),
    fc.tuple(genuine, fc.nat()).map(([token, at]) => token.slice(0, at % token.length)),
    // Anything shaped like a JWT, and anything not.
    fc.array(base64urlPart, { minLength: 0, maxLength: 5 }).map((parts) => parts.join('.')),
    headerValue,
  ).filter((token) => token.length < 8_000); // Node's own limit on a request head is 16 kB
}

/** An Authorization header that cannot authenticate: garbage, other schemes, forged or misplaced tokens. */
export function garbageAuthorization(real: RealCredentials): fc.Arbitrary<string> {
  const genuine = fc.constantFrom(...real.accounts.map((account) => account.token));
  return fc.oneof(
    headerValue,
    headerValue.map((value) => `Bearer ${value}`),
    forgedTokens(real).map((token) => `Bearer ${token}`),
    fc.constantFrom('Bearer', 'Bearer ', 'Bearer null', 'Bearer undefined', 'BEARER x', 'Basic dXNlcjpwYXNz', 'Digest username="a"', 'Negotiate'),
    // A genuine token under a wrong or bent scheme.
    fc.tuple(fc.constantFrom('bearer ', 'BEARER ', 'Bearer', 'Bearer  ', 'Bearer\t', 'Token ', 'JWT ', 'Basic ', ''), genuine)
      .map(([scheme, token]) => `${scheme}${token}`),
  );
}

/** An x-api-key that is not a live key: wrong prefix, length or alphabet, unknown, or a real key bent. */
export function forgedApiKeys(real: RealCredentials): fc.Arbitrary<string> {
  const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: length, maxLength: length });
  const genuine = fc.constantFrom(...real.apiKeys);
  const isLive = (key: string) => real.apiKeys.includes(asReceived(key));
  return fc.oneof(
    headerValue,
    hex(32).map((h) => `pcls_${h}`), // well-formed, never issued
    fc.tuple(fc.constantFrom('PCLS_', 'Pcls_', 'pcls-', 'pcls.', 'pclx_', 'pcl_', 'pcls', 'xpcls', '_pcls', 'pcls__', 'sk_live_'), hex(32))
      .map(([prefix, h]) => `${prefix}${h}`),
    fc.nat({ max: 80 }).filter((n) => n !== 32).chain((n) => hex(n)).map((h) => `pcls_${h}`),
    fc.string({ unit: headerChar, minLength: 32, maxLength: 32 }).map((s) => `pcls_${s}`), // right length, any alphabet
    genuine.map((key) => `pcls_${key.slice(5).toUpperCase()}`),
    fc.tuple(genuine, fc.nat(), headerChar).map(([key, at, c]) => {
      const i = at % key.length;
      return `${key.slice(0, i)}${c}${key.slice(i + 1)}`;
    }),
    fc.tuple(genuine, fc.nat({ max: 36 })).map(([key, cut]) => key.slice(0, cut)),
    fc.tuple(genuine, headerValue).map(([key, more]) => `${key}${more}`),
  ).filter((key) => !isLive(key));
}

/** Credentials that must never get past authentication: a forged key (whatever Authorization says), or no key and no valid token. */
export function refusedCredentials(real: RealCredentials): fc.Arbitrary<CredentialHeaders> {
  const valid = fc.constantFrom(...real.accounts.map((account) => `Bearer ${account.token}`));
  return fc.oneof(
    fc.record({
      apiKey: forgedApiKeys(real),
      authorization: fc.option(fc.oneof(garbageAuthorization(real), valid), { nil: undefined }),
    }),
    fc.record({ authorization: fc.option(garbageAuthorization(real), { nil: undefined }) }),
  );
}

/** Credentials that authenticate: each account's token, or a live key. */
export function validCredentials(real: RealCredentials): fc.Arbitrary<CredentialHeaders> {
  return fc.oneof(
    fc.constantFrom(...real.accounts).map((account) => ({ authorization: `Bearer ${account.token}` })),
    fc.constantFrom(...real.apiKeys).map((apiKey) => ({ apiKey })),
  );
}

/**
 * Tokens correctly signed with our secret but carrying arbitrary claims: what a bug in our own
 * issuing, or a stale token, could look like. Returned with the payload so a check can reason on it.
 */
export function signedArbitraryClaims(real: RealCredentials): fc.Arbitrary<{ token: string; payload: unknown }> {
  const value = (reals: readonly string[]) => fc.oneof(fc.constantFrom(...reals), anyJson, shortNastyString);
  const accounts = real.accounts;
  const payload = fc.oneof(
    { weight: 5, arbitrary: fc.record({
      tenantId: value(accounts.map((a) => a.tenantId)),
      userId: value(accounts.map((a) => a.userId)),
      email: value(accounts.map((a) => a.email)),
      role: fc.oneof(fc.constantFrom(...ROLE_NAMES, 'OWNER', 'Admin', 'owner ', 'superadmin', 'root', '', '__proto__', 'constructor'), anyJson),
      exp: fc.oneof(
        { weight: 4, arbitrary: withinADay }, { weight: 1, arbitrary: future }, { weight: 1, arbitrary: past }, { weight: 1, arbitrary: anyJson },
      ),
      nbf: fc.oneof(past, future, anyJson),
    }, { requiredKeys: ['tenantId', 'userId', 'email', 'role'] }) },
    { weight: 1, arbitrary: anyJson },
  );
  return payload.map((p) => ({ token: hmacJwt({ alg: 'HS256', typ: 'JWT' }, p, real.secret), payload: p }))
    .filter(({ token }) => token.length < 8_000); // Node's own limit on a request head is 16 kB
}

/**
 * The role such a token grants, or null when it must be refused: docs/contract.md, "Authentication of protected routes" (our claims, an expiry, not
 * too early, not beyond the 24 h lifetime), then the member check (its tenant and user name a
 * member); the role is the claim's, as given (one the service does not know passes no role check).
 * The generated claims carry no auth version: they count as tokens from before versions, valid
 * while the member's version is the initial one, as every fuzzed account's is.
 */
export function grantedRole(payload: unknown, accounts: RealCredentials['accounts']): string | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  if (![p['tenantId'], p['userId'], p['email'], p['role']].every((v) => typeof v === 'string')) return null;
  const now = Date.now() / 1000;
  const exp = p['exp'];
  const nbf = p['nbf'];
  if (typeof exp !== 'number' || exp <= now + 1) return null;
  // No iat in these tokens: a life beyond ours (plus the skew) from now is refused.
  if (exp - now > LIFETIME_SECONDS + SKEW_SECONDS - 1) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now - 1)) return null;
  if (p['authVersion'] !== undefined) return null;
  const member = accounts.find((account) => account.userId === p['userId'] && account.tenantId === p['tenantId']);
  return member ? (p['role'] as string) : null;
}
