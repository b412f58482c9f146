import fc from 'fast-check';
import { request } from '../support/contract-request';
import { bearer, createApiKey, createInvite, joinWithRole, signupOwner, type Account } from '../support/http-fixtures';
import { TEST_JWT_SECRET } from '../support/test-use-cases';
import { extraHeaders, pathSegment, wireBody } from './arbitraries';
import {
  credentialHeaders, grantedRole, refusedCredentials, signedArbitraryClaims, validCredentials, expectedRefusal, type RealCredentials,
} from './credentials';
import { assertServerContract, FUZZ_TIMEOUT_MS, fuzzParameters, memoryTarget, sendAndCheck, type FuzzRequest, type FuzzResponse, type FuzzTarget } from './fuzz-harness';
import { AUTH, inviteFields, passkeyFields, protectedCalls, type ProtectedCall } from './routes';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { registerPasskey, TEST_ORIGIN } from '../http-db/passkeys-flow';

/** Every protected route (keys, invites, members, password, passkeys) under fuzzed credentials, bodies and ids. */
describe('fuzz: protected routes', () => {
  let target: FuzzTarget;
  let real: RealCredentials;
  let owner: Account;
  let ownInviteIds: string[];
  let otherInviteIds: string[];
  const callerOf = new Map<string, { role: string; tenantId: string }>(); // credential header value -> who it is
  const tenantOfInvite = new Map<string, string>();

  beforeAll(async () => {
    ({ target } = await memoryTarget());
    const { app } = target;
    owner = await signupOwner(app, 'Fuzz Protected A');
    const admin = await joinWithRole(app, owner, 'admin');
    const member = await joinWithRole(app, owner, 'member');
    const viewer = await joinWithRole(app, owner, 'viewer');
    const otherOwner = await signupOwner(app, 'Fuzz Protected B');
    const ownerKey = await createApiKey(app, owner);
    const adminKey = await createApiKey(app, admin);
    for (let i = 0; i < 12; i += 1) await createInvite(app, owner);
    for (let i = 0; i < 6; i += 1) await createInvite(app, otherOwner);
    await registerPasskey(app, owner, new SoftwareAuthenticator(TEST_ORIGIN));
    ownInviteIds = await inviteIds(owner);
    otherInviteIds = await inviteIds(otherOwner);
    real = { secret: TEST_JWT_SECRET, accounts: [owner, admin, member, viewer, otherOwner], apiKeys: [ownerKey, adminKey] };
    for (const account of real.accounts) callerOf.set(`Bearer ${account.token}`, { role: account.role, tenantId: account.tenantId });
    callerOf.set(ownerKey, { role: 'owner', tenantId: owner.tenantId }).set(adminKey, { role: 'admin', tenantId: owner.tenantId });
    for (const id of ownInviteIds) tenantOfInvite.set(id, owner.tenantId);
    for (const id of otherInviteIds) tenantOfInvite.set(id, otherOwner.tenantId);
  });

  afterAll(async () => {
    await target?.close();
  });

  async function inviteIds(admin: Account): Promise<string[]> {
    const res = await request(target.app).get(`${AUTH}/invites`).set(bearer(admin));
    return (res.body.invites as Array<{ id: string }>).map((invite) => invite.id);
  }

  const bodyOf = (res: FuzzResponse): { error?: unknown } => JSON.parse(res.text) as { error?: unknown };

  function build(call: ProtectedCall, credentials: Record<string, string>, body: { body?: string | Uint8Array | undefined; headers: Record<string, string> }, extra: Record<string, string>): FuzzRequest {
    return { method: call.method, path: call.path, headers: { ...extra, ...body.headers, ...credentials }, body: body.body };
  }

  it('answers forged, garbled or missing credentials on every protected route with 401 and the authentication message, storing nothing', async () => {
    const cases = fc.record({
      call: protectedCalls([...ownInviteIds, ...otherInviteIds]),
      credentials: refusedCredentials(real),
      body: wireBody(inviteFields()),
      extra: extraHeaders(['x-api-key', 'authorization']),
    });
    await fc.assert(fc.asyncProperty(cases, async ({ call, credentials, body, extra }) => {
      const res = await sendAndCheck(target, build(call, credentialHeaders(credentials), body, extra), (_req, answer) => {
        expect({ status: answer.status, error: bodyOf(answer).error, sent: credentials })
          .toEqual({ status: 401, error: expectedRefusal(credentials), sent: credentials });
      });
      fc.pre(res !== null);
    }), fuzzParameters());
  }, FUZZ_TIMEOUT_MS);

  it('keeps the contract for valid credentials with any body, content type, header and invite id', async () => {
    const cases = fc.record({
      call: protectedCalls([...ownInviteIds, ...otherInviteIds, ...ownInviteIds.map((id) => id.toUpperCase())], true),
      credentials: validCredentials(real),
      body: wireBody(fc.oneof(inviteFields([owner.email]), passkeyFields())),
      extra: extraHeaders(['x-api-key', 'authorization']),
    });
    await fc.assert(fc.asyncProperty(cases, async ({ call, credentials, body, extra }) => {
      const caller = callerOf.get(credentials.authorization ?? credentials.apiKey ?? '')!;
      const lowRole = caller.role === 'member' || caller.role === 'viewer';
      const res = await sendAndCheck(target, build(call, credentialHeaders(credentials), body, extra), (_req, answer) => {
        const seen = { status: answer.status, error: answer.status >= 400 ? bodyOf(answer).error : undefined };
        // The role check comes before the body is read: a lower role learns nothing about the body.
        if (call.strict && call.minimum === 'admin' && lowRole) expect(seen).toEqual({ status: 403, error: 'Requires admin role or higher' });
        if (call.strict && call.minimum === 'owner' && caller.role !== 'owner') expect(seen).toEqual({ status: 403, error: 'Requires owner role or higher' });
        // Another tenant's invite: not found, whatever else the request says.
        const inviteTenant = call.method === 'DELETE' ? tenantOfInvite.get(call.path.slice(call.path.lastIndexOf('/') + 1)) : undefined;
        if (call.strict && !lowRole && inviteTenant !== undefined && inviteTenant !== caller.tenantId) {
          expect(seen).toEqual({ status: 404, error: 'Invite not found' });
        }
        // No fuzzed response is an authenticator's answer to a challenge this member was given.
        if (call.method === 'POST' && call.path === `${AUTH}/mfa/passkeys`) expect(answer.status).not.toBe(201);
      });
      fc.pre(res !== null);
    }), fuzzParameters());
  }, FUZZ_TIMEOUT_MS);

  it('refuses tokens signed with our secret unless their claims are ours, and checks the role they carry', async () => {
    const cases = fc.record({
      call: protectedCalls(ownInviteIds),
      signed: signedArbitraryClaims(real),
      body: wireBody(inviteFields()),
    });
    await fc.assert(fc.asyncProperty(cases, async ({ call, signed, body }) => {
      const role = grantedRole(signed.payload, real.accounts);
      const res = await sendAndCheck(target, build(call, { authorization: `Bearer ${signed.token}` }, body, {}), (_req, answer) => {
        const seen = { status: answer.status, error: answer.status >= 400 ? bodyOf(answer).error : undefined };
        if (role === null) expect(seen).toEqual({ status: 401, error: 'Invalid or expired token' });
        else if (call.minimum === 'admin' && role !== 'owner' && role !== 'admin') expect(seen).toEqual({ status: 403, error: 'Requires admin role or higher' });
        else if (call.minimum === 'owner' && role !== 'owner') expect(seen).toEqual({ status: 403, error: 'Requires owner role or higher' });
        else if (call.method === 'GET' && call.path.endsWith('/me')) expect(answer.status).toBe(200);
      });
      fc.pre(res !== null);
    }), fuzzParameters());
  }, FUZZ_TIMEOUT_MS);

  it('DELETE /invites/:id with any path segment: 200 only for a pending invite of the caller\'s tenant, else 400 or 404', async () => {
    const pending = new Set(await inviteIds(owner)); // earlier properties may have deleted some
    const otherOwner = real.accounts[4]!;
    const othersBefore = await inviteIds(otherOwner);
    const segments = fc.oneof(
      pathSegment,
      fc.constantFrom(...ownInviteIds), // some answered 200 once, then 404
      fc.constantFrom(...otherInviteIds), // another tenant's: 404, the record stays (checked by the snapshot)
      fc.constantFrom(...ownInviteIds).map((id) => id.split('').map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')), // fully escaped
    );
    await fc.assert(fc.asyncProperty(segments, async (segment) => {
      const req: FuzzRequest = { method: 'DELETE', path: `${AUTH}/invites/${segment}`, headers: { ...bearer(owner) } };
      const res = await sendAndCheck(target, req, (_req, answer) => {
        if (segment === '' || /[/?#]/.test(segment)) return; // not one segment: another route, or none
        let id: string;
        try {
          id = decodeURIComponent(segment);
        } catch {
          expect(answer.status).toBe(400);
          return;
        }
        if (pending.delete(id)) expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({ status: 200, body: { deleted: true } });
        else expect({ status: answer.status, error: bodyOf(answer).error }).toEqual({ status: 404, error: 'Invite not found' });
      });
      fc.pre(res !== null);
    }), fuzzParameters());
    // The other tenant's invites all survived.
    expect(await inviteIds(otherOwner)).toEqual(othersBefore);
  }, FUZZ_TIMEOUT_MS);

  it('keeps the contract for any request at all to the protected paths', async () => {
    const cases = fc.record({
      call: protectedCalls(ownInviteIds, true),
      credentials: fc.oneof(validCredentials(real), refusedCredentials(real)),
      body: wireBody(),
      extra: extraHeaders(),
    });
    await assertServerContract(target, cases.map(({ call, credentials, body, extra }) => build(call, credentialHeaders(credentials), body, extra)));
  }, FUZZ_TIMEOUT_MS);
});
