import type { Express } from 'express';
import request from 'supertest';
import { portcullis, type PortcullisMiddleware } from '@portcullis/client';
import { startTestPortcullis, type TestPortcullisServer } from 'portcullis/testing';
import { downstreamApp } from '../app';

/*
 * The downstream example's tests, written the way a team tests its own service: the client library
 * pointed at a fake Portcullis from the test kit (memory storage, a real port, no database), every
 * credential state arranged in one line.
 */
let pc: TestPortcullisServer;
let serviceKey: string;
let auth: PortcullisMiddleware;
let app: Express;
let errors: string[];

beforeEach(async () => {
  pc = await startTestPortcullis();
  serviceKey = await pc.serviceKey('downstream');
  errors = [];
  auth = portcullis({ url: pc.url, serviceKey, now: pc.now, onError: (error) => errors.push(error.message) });
  app = downstreamApp(auth);
  await auth.feedReady();
});

afterEach(async () => {
  auth.close();
  await pc.close();
});

type Headers = Record<string, string>;
const whoami = (headers: Headers) => () => request(app).get('/whoami').set(headers);
const adminOnly = (headers: Headers) => () => request(app).post('/admin-only').set(headers);

function expectRefused(res: request.Response, status: number, error: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error } });
}

describe('who the downstream admits', () => {
  it('answers GET /whoami with the principal of a token and of a key', async () => {
    const acme = await pc.tenant();
    const key = await pc.apiKey(acme.owner);
    const principal = { tenant_id: acme.tenantId, user_id: acme.owner.userId, role: 'owner' };
    expect((await whoami(acme.owner.headers)()).body).toEqual({ ...principal, method: 'jwt' });
    expect((await whoami(key.headers)()).body).toEqual({ ...principal, method: 'api_key' });
  });

  it.each([
    ['no credential', {}, 'Missing authentication'],
    ['a key of the wrong shape', { 'x-api-key': 'pcls_short' }, 'Invalid API key format'],
    ['an unknown key', { 'x-api-key': `pcls_${'0'.repeat(32)}` }, 'Invalid API key'],
    ['a token Portcullis never issued', { authorization: 'Bearer not-a-token' }, 'Invalid or expired token'],
  ])('refuses %s with 401', async (_label, headers, error) => {
    expectRefused(await whoami(headers)(), 401, error);
  });

  it('lets only an admin or the owner through POST /admin-only', async () => {
    const team = await pc.team(await pc.tenant());
    for (const who of [team.member, team.viewer]) expectRefused(await adminOnly(who.headers)(), 403, 'Requires admin role or higher');
    for (const who of [team.admin, team.owner]) expect((await adminOnly(who.headers)()).body).toEqual({ ok: true, acted_as: who.userId });
  });
});

describe('changes in Portcullis, as the downstream sees them', () => {
  it('refuses a key once it is revoked', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner);
    const refused = await pc.refusedAfter(() => pc.revokeApiKey(key), whoami(key.headers));
    expectRefused(refused, 401, 'Invalid API key');
  });

  it('refuses a removed member\'s token and keys', async () => {
    const admin = await pc.member(await pc.tenant(), 'admin');
    const key = await pc.apiKey(admin);
    expect((await whoami(key.headers)()).status).toBe(200);
    expectRefused(await pc.refusedAfter(() => pc.removeMember(admin), whoami(admin.headers)), 401, 'Invalid or expired token');
    expectRefused(await whoami(key.headers)(), 401, 'Invalid API key');
  });

  it('follows a member\'s role: promoted, their key may act as admin; demoted, it may not', async () => {
    const member = await pc.member(await pc.tenant(), 'member');
    const key = await pc.apiKey(member);
    const promoted = await pc.seenAfter(() => pc.changeRole(member, 'admin'), adminOnly(key.headers), (res) => res.status === 200);
    expect(promoted.body).toEqual({ ok: true, acted_as: member.userId });
    const demoted = await pc.refusedAfter(() => pc.changeRole(member, 'viewer'), adminOnly(key.headers));
    expectRefused(demoted, 403, 'Requires admin role or higher');
    expect((await whoami(key.headers)()).body.role).toBe('viewer');
  });

  it('refuses a key from its expiry on, by the kit\'s clock', async () => {
    const key = await pc.apiKey((await pc.tenant()).owner, { expiresInDays: 1 });
    expect((await whoami(key.headers)()).status).toBe(200);
    pc.advanceTime({ days: 1 });
    expectRefused(await whoami(key.headers)(), 401, 'Invalid API key');
  });
});

describe('when Portcullis cannot vouch', () => {
  const unavailable = (res: request.Response) => res.status === 503;

  it('answers 503 once its service key is revoked', async () => {
    const owner = (await pc.tenant()).owner;
    const res = await pc.seenAfter(() => pc.revokeServiceKey(serviceKey), whoami(owner.headers), unavailable);
    expectRefused(res, 503, 'Authentication unavailable');
    expect(res.headers['retry-after']).toBe('5');
    expect(errors).toContain('Portcullis refused this service key (missing, unknown or revoked)');
  });

  it('answers 503 while Portcullis is down, even for a credential it had admitted', async () => {
    const owner = (await pc.tenant()).owner;
    const res = await pc.seenAfter(() => pc.close(), whoami(owner.headers), unavailable);
    expectRefused(res, 503, 'Authentication unavailable');
    expectRefused(await whoami({})(), 401, 'Missing authentication'); // decided without asking
  });
});
