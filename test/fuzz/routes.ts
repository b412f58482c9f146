import fc from 'fast-check';
import { anyJson, emailish, fieldsObject, nastyString, passwordish, pathSegment } from './arbitraries';

export const AUTH = '/api/v1/auth';

/** One call to a protected route: `strict` when the path is sure to match the route (so authentication runs first). */
export interface ProtectedCall {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The route's minimum role (docs/contract.md, "Routes"; the tenant's policy is the owner's); null for "any authenticated". */
  readonly minimum: 'owner' | 'admin' | null;
  readonly strict: boolean;
}

/** Arbitrary text as one path segment that routes as one segment and decodes cleanly. */
export function encodedSegment(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?')); // a lone surrogate half cannot be percent-encoded
}

/**
 * Every protected route. Invite ids in a strict call are UUIDs, the given real ids, or arbitrary
 * text percent-encoded; a loose call may also carry any segment at all (broken escapes, dots, empty).
 * Key, member and passkey ids are never real ones (UUIDs or arbitrary text), so that no call revokes
 * a key, re-roles or removes a member and ends a credential the other properties rely on.
 */
export function protectedCalls(realInviteIds: readonly string[], loose = false): fc.Arbitrary<ProtectedCall> {
  const strictIds = fc.oneof(
    fc.uuid(),
    ...(realInviteIds.length > 0 ? [fc.constantFrom(...realInviteIds)] : []),
    nastyString.filter((s) => s.length > 0 && s.length < 500).map(encodedSegment),
  );
  const unknownIds = fc.oneof(fc.uuid(), nastyString.filter((s) => s.length > 0 && s.length < 500).map(encodedSegment));
  const deletes = (ids: fc.Arbitrary<string>, strict: boolean) =>
    ids.map((id): ProtectedCall => ({ method: 'DELETE', path: `${AUTH}/invites/${id}`, minimum: 'admin', strict }));
  const onUnknownId = (method: ProtectedCall['method'], collection: string, minimum: ProtectedCall['minimum'] = 'admin') =>
    unknownIds.map((id): ProtectedCall => ({ method, path: `${AUTH}/${collection}/${id}`, minimum, strict: true }));
  return fc.oneof(
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/me`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/api-keys`, minimum: 'admin', strict: true }),
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/api-keys`, minimum: 'admin', strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/invite`, minimum: 'admin', strict: true }),
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/invites`, minimum: 'admin', strict: true }),
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/members`, minimum: 'admin', strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/password`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/email/verify/resend`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/email/change`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/mfa`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/mfa/totp/confirm`, minimum: null, strict: true }),
    // No fuzzed caller used a second factor, so a PATCH never switches the policy.
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/tenant/security`, minimum: 'owner', strict: true }),
    fc.constant<ProtectedCall>({ method: 'PATCH', path: `${AUTH}/tenant/security`, minimum: 'owner', strict: true }),
    onUnknownId('DELETE', 'api-keys'),
    onUnknownId('PATCH', 'members'),
    onUnknownId('DELETE', 'members'),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/mfa/passkeys/options`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'POST', path: `${AUTH}/mfa/passkeys`, minimum: null, strict: true }),
    fc.constant<ProtectedCall>({ method: 'GET', path: `${AUTH}/mfa/passkeys`, minimum: null, strict: true }),
    onUnknownId('PATCH', 'mfa/passkeys', null),
    onUnknownId('DELETE', 'mfa/passkeys', null),
    deletes(strictIds, true),
    ...(loose ? [deletes(pathSegment, false)] : []),
  );
}

/**
 * A body that passes validation, or does but for one field: replaced by something odd, or dropped,
 * or joined by an unknown key. Fully random bodies rarely get past validation; these reach the
 * use-cases and storage, where the deeper failures live.
 */
function nearlyValid(valid: fc.Arbitrary<Record<string, unknown>>, odd: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(odd);
  const bent = fc.tuple(valid, fc.constantFrom(...keys)).chain(([body, key]) =>
    fc.oneof(odd[key]!, anyJson, fc.constant(undefined)).map((value) => {
      const copy: Record<string, unknown> = { ...body };
      if (value === undefined) delete copy[key];
      else copy[key] = value;
      return copy;
    }));
  const extended = fc.tuple(valid, fc.string({ maxLength: 12 }), anyJson).map(([body, key, value]) => ({ [key]: value, ...body }));
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: bent }, { weight: 1, arbitrary: extended });
}

const validEmail = fc.emailAddress().filter((email) => email.length <= 254);
const validPassword = fc.oneof(fc.string({ minLength: 8, maxLength: 64 }), fc.string({ unit: 'grapheme', minLength: 8, maxLength: 64 }));
const validTenantName = fc.oneof(fc.string({ minLength: 1, maxLength: 100 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }));
const validRole = fc.constantFrom('admin', 'member', 'viewer');
const oddRole = fc.oneof(fc.constantFrom('owner', 'OWNER', ' admin', 'Admin', '', 'superadmin'), nastyString);

/** Invite bodies: the two fields, plausible or not, an owner role among them. */
export function inviteFields(knownEmails: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const odd = { email: emailish(knownEmails), role: oddRole };
  return fc.oneof(
    fieldsObject({ email: emailish(knownEmails), role: fc.oneof(validRole, oddRole) }),
    nearlyValid(fc.record({ email: validEmail, role: validRole }, { requiredKeys: ['email'] }), odd),
  );
}

export function loginFields(knownEmails: readonly string[], password: string): fc.Arbitrary<Record<string, unknown>> {
  const emails = knownEmails.length > 0 ? fc.oneof(validEmail, fc.constantFrom(...knownEmails)) : validEmail;
  const passwords = fc.oneof(validPassword, fc.constant(password));
  return fc.oneof(
    fieldsObject({ email: emailish(knownEmails), password: fc.oneof(passwordish, fc.constant(password)) }),
    nearlyValid(fc.record({ email: emails, password: passwords }), { email: emailish(knownEmails), password: passwordish }),
  );
}

export function signupFields(knownEmails: readonly string[], inviteTokens: readonly string[], password: string): fc.Arbitrary<Record<string, unknown>> {
  const realTokens = inviteTokens.length > 0 ? [fc.constantFrom(...inviteTokens)] : [];
  const tokens = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 64, maxLength: 64 }),
    nastyString,
    ...realTokens,
    ...realTokens.map((t) => t.map((token) => token.toUpperCase())),
  );
  const emails = knownEmails.length > 0 ? fc.oneof(validEmail, fc.constantFrom(...knownEmails)) : validEmail;
  const odd = { email: emailish(knownEmails), password: passwordish, tenant_name: nastyString, invite_token: tokens };
  const newTenant = fc.record({ email: emails, password: fc.oneof(validPassword, fc.constant(password)), tenant_name: validTenantName });
  const byInvite = fc.record({ email: emails, password: validPassword, invite_token: realTokens[0] ?? tokens, tenant_name: validTenantName },
    { requiredKeys: ['email', 'password', 'invite_token'] });
  return fc.oneof(
    fieldsObject({
      email: emailish(knownEmails),
      password: fc.oneof(passwordish, fc.constant(password)),
      tenant_name: fc.oneof(nastyString, validTenantName),
      invite_token: tokens,
    }),
    nearlyValid(newTenant, odd),
    nearlyValid(byInvite, odd),
  );
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const base64urlish = fc.oneof(
  fc.uint8Array({ maxLength: 96 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  nastyString,
);

/**
 * What a browser's PublicKeyCredential JSON looks like, with client data that parses (a challenge,
 * an origin, a type) and everything else random or odd: it gets past the shape checks to the
 * ceremony's lookups and the signature check, where it must fail.
 */
export function credentialResponse(knownCredentialIds: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const ids = knownCredentialIds.length > 0 ? fc.oneof(base64urlish, fc.constantFrom(...knownCredentialIds)) : base64urlish;
  const clientData = fc.record({
    type: fc.oneof(fc.constantFrom('webauthn.get', 'webauthn.create'), nastyString),
    challenge: fc.oneof(base64urlish, anyJson),
    origin: fc.oneof(fc.constantFrom('http://localhost:3000', 'https://evil.example'), nastyString),
  }).map((data) => base64url(JSON.stringify(data)));
  const inner = fc.record({
    clientDataJSON: fc.oneof({ weight: 4, arbitrary: clientData }, { weight: 1, arbitrary: base64urlish }),
    authenticatorData: base64urlish,
    signature: base64urlish,
    attestationObject: base64urlish,
    userHandle: fc.oneof(base64urlish, fc.constant(null)),
  }, { requiredKeys: ['clientDataJSON'] });
  return fc.record({
    id: ids,
    rawId: ids,
    type: fc.oneof(fc.constant('public-key'), nastyString),
    response: fc.oneof({ weight: 5, arbitrary: inner }, { weight: 1, arbitrary: anyJson }),
    clientExtensionResults: fc.constant({}),
  }, { requiredKeys: ['id', 'response'] });
}

const validPasskeyName = fc.oneof(fc.string({ minLength: 1, maxLength: 100 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }));

/** Bodies of the passkey routes: registration and renaming ({name, response}), passwordless sign-in ({ceremony, response}). */
export function passkeyFields(ceremonies: readonly string[] = [], knownCredentialIds: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 64, maxLength: 64 });
  const ceremony = ceremonies.length > 0 ? fc.oneof(hex64, fc.constantFrom(...ceremonies)) : hex64;
  const response = credentialResponse(knownCredentialIds);
  return fc.oneof(
    fieldsObject({ name: fc.oneof(nastyString, validPasskeyName), ceremony: fc.oneof(ceremony, nastyString), response: fc.oneof(response, anyJson) }),
    nearlyValid(fc.record({ name: validPasskeyName, response }), { name: nastyString, response: anyJson }),
    nearlyValid(fc.record({ ceremony, response }), { ceremony: nastyString, response: anyJson }),
  );
}
