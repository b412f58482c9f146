import { portcullis, principalOf } from '@portcullis/client';
import express from 'express';
import { ALL_TENANTS } from '../../src/domain/service-key';
import http from 'node:http';
import jwt from 'jsonwebtoken';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import type { CredentialChangeFanOut } from '../../src/adapters/cache/credential-change-fan-out';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { AUTH, bearer, createApiKey, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { buildTestApp } from '../support/http-app';
import { TestClock } from '../../src/testing/test-clock';
import { TEST_JWT_SECRET } from '../support/test-use-cases';
import { expectSessionEndsFollowed } from '../support/session-ends';
import { countingIntrospections, type Downstream, downstream, RunningServer, serviceKeyManager } from '../support/verifier-fixtures';

/** A Portcullis on memory storage, on a real port, and the example downstream service in front of it. */
async function setup() {
  const clock = new TestClock();
  const serviceKeys = new MemoryServiceKeys();
  const manage = serviceKeyManager(serviceKeys, clock);
  const { rawKey } = await manage.create('downstream', ALL_TENANTS);
  const built = await buildTestApp({}, { serviceKeys, clock }, { changeHeartbeatMs: 200 });
  const counted = countingIntrospections(built.app);
  const server = new RunningServer(counted.listener);
  await server.start();
  const service = downstream(server.url, rawKey, { now: () => clock.now().getTime() });
  await service.auth.feedReady();
  return { ...built, clock, manage, server, service, introspections: counted.count };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function whoami(service: Downstream, headers: Record<string, string>) {
  return supertest(service.app).get('/whoami').set(headers);
}

function expectRefused(res: supertest.Response, status: number, error: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error } });
}

const apiKeyHeader = (key: string) => ({ 'x-api-key': key });

describe('the verifier library against Portcullis (memory storage)', () => {
  let ctx: Setup;
  beforeEach(async () => {
    ctx = await setup();
  });
  afterEach(async () => {
    ctx.service.auth.close();
    await ctx.server.stop();
  });

  describe('authentication of protected routes, through the middleware', () => {
    it('admits a bearer token and an API key with the principal Portcullis vouches for', async () => {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      const byToken = await whoami(ctx.service, bearer(owner));
      expect(byToken.status).toBe(200);
      expect(byToken.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'jwt' });
      const byKey = await whoami(ctx.service, apiKeyHeader(key));
      expect(byKey.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'api_key' });
    });

    it('refuses a request without a credential, or with an Authorization that is not Bearer: Missing authentication', async () => {
      expectRefused(await whoami(ctx.service, {}), 401, 'Missing authentication');
      expectRefused(await whoami(ctx.service, { Authorization: 'Basic dXNlcjpwYXNz' }), 401, 'Missing authentication');
      expect(ctx.introspections()).toBe(0);
    });

    it('refuses a key of the wrong prefix or length without asking, even beside a valid token: Invalid API key format', async () => {
      const owner = await signupOwner(ctx.app);
      for (const key of ['pcls_short', 'xxxx_0123456789abcdef0123456789abcdef', `pcls_${'a'.repeat(33)}`, '']) {
        expectRefused(await whoami(ctx.service, { ...apiKeyHeader(key), ...bearer(owner) }), 401, 'Invalid API key format');
      }
      expect(ctx.introspections()).toBe(0);
    });

    it('refuses an unknown, revoked or expired key, or one whose owner was removed: Invalid API key', async () => {
      const owner = await signupOwner(ctx.app);
      const admin = await joinWithRole(ctx.app, owner, 'admin');
      const unknown = 'pcls_0123456789abcdef0123456789abcdef';
      const revoked = await createApiKey(ctx.app, owner);
      const list = await request(ctx.app).get(`${AUTH}/api-keys`).set(bearer(owner));
      await request(ctx.app).delete(`${AUTH}/api-keys/${list.body.api_keys[0].id}`).set(bearer(owner)).expect(200);
      const expiring = (await request(ctx.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ expires_in_days: 1 })).body.api_key as string;
      const adminKey = await createApiKey(ctx.app, admin);
      await request(ctx.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);
      ctx.clock.advance({ seconds: 2 * 86_400 });
      for (const key of [unknown, revoked, expiring, adminKey]) {
        expectRefused(await whoami(ctx.service, apiKeyHeader(key)), 401, 'Invalid API key');
      }
    });

    it("refuses an API key's text sent as a bearer token, even while the key itself is remembered: Invalid or expired token", async () => {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      expect((await whoami(ctx.service, apiKeyHeader(key))).status).toBe(200);
      expectRefused(await whoami(ctx.service, { authorization: `Bearer ${key}` }), 401, 'Invalid or expired token');
      expect((await whoami(ctx.service, apiKeyHeader(key))).status).toBe(200);
    });

    it('refuses a token that is malformed, forged, of another algorithm, expired, outdated or of a removed member: Invalid or expired token', async () => {
      const owner = await signupOwner(ctx.app);
      const member = await joinWithRole(ctx.app, owner, 'member');
      const gone = await joinWithRole(ctx.app, owner, 'viewer');
      const claims = { tenantId: owner.tenantId, userId: owner.userId, email: owner.email, role: 'owner' };
      const forged = jwt.sign(claims, 'a-different-secret-of-at-least-32-bytes', { expiresIn: '1h' });
      const hs512 = jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: '1h' });
      const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, TEST_JWT_SECRET);
      await request(ctx.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
      await request(ctx.app).delete(`${AUTH}/members/${gone.userId}`).set(bearer(owner)).expect(200);
      for (const token of ['not-a-jwt', forged, hs512, expired, member.token, gone.token]) {
        expectRefused(await whoami(ctx.service, { Authorization: `Bearer ${token}` }), 401, 'Invalid or expired token');
      }
    });

    it('requireRole: 403 with the contract message below the minimum, through at or above it', async () => {
      const owner = await signupOwner(ctx.app);
      const admin = await joinWithRole(ctx.app, owner, 'admin');
      const member = await joinWithRole(ctx.app, owner, 'member');
      const viewer = await joinWithRole(ctx.app, owner, 'viewer');
      for (const account of [member, viewer]) {
        expectRefused(await supertest(ctx.service.app).post('/admin-only').set(bearer(account)), 403, 'Requires admin role or higher');
      }
      for (const account of [admin, owner]) {
        const res = await supertest(ctx.service.app).post('/admin-only').set(bearer(account));
        expect(res.body).toEqual({ ok: true, acted_as: account.userId });
      }
      expectRefused(await supertest(ctx.service.app).post('/admin-only'), 401, 'Missing authentication');
    });
  });

  describe('remembering, and forgetting what the feed says', () => {
    it('asks once per credential while the feed is open', async () => {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      for (let i = 0; i < 5; i += 1) {
        expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
        expect((await whoami(ctx.service, apiKeyHeader(key))).status).toBe(200);
      }
      expect(ctx.introspections()).toBe(2);
    });

    it('a key revoked through the API is refused as soon as its change arrives', async () => {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      expect((await whoami(ctx.service, apiKeyHeader(key))).status).toBe(200);
      const { id } = (await request(ctx.app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0];
      const heard = ctx.service.nextChange((change) => change.kind === 'api_key' && change.keyId === id);
      await request(ctx.app).delete(`${AUTH}/api-keys/${id}`).set(bearer(owner)).expect(200);
      await heard;
      expectRefused(await whoami(ctx.service, apiKeyHeader(key)), 401, 'Invalid API key');
    });

    it('a member removed loses their tokens and keys; a re-roled member their tokens, while their keys take the new role', async () => {
      const owner = await signupOwner(ctx.app);
      const admin = await joinWithRole(ctx.app, owner, 'admin');
      const other = await joinWithRole(ctx.app, owner, 'admin');
      const adminKey = await createApiKey(ctx.app, admin);
      const otherKey = await createApiKey(ctx.app, other);
      for (const headers of [bearer(admin), apiKeyHeader(adminKey), bearer(other), apiKeyHeader(otherKey)]) {
        expect((await whoami(ctx.service, headers)).status).toBe(200);
      }

      let heard = ctx.service.nextChange((change) => change.kind === 'user' && change.userId === admin.userId);
      await request(ctx.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);
      await heard;
      expectRefused(await whoami(ctx.service, bearer(admin)), 401, 'Invalid or expired token');
      expectRefused(await whoami(ctx.service, apiKeyHeader(adminKey)), 401, 'Invalid API key');

      heard = ctx.service.nextChange((change) => change.kind === 'user' && change.userId === other.userId);
      await request(ctx.app).patch(`${AUTH}/members/${other.userId}`).set(bearer(owner)).send({ role: 'member' }).expect(200);
      await heard;
      expectRefused(await whoami(ctx.service, bearer(other)), 401, 'Invalid or expired token');
      expect((await whoami(ctx.service, apiKeyHeader(otherKey))).body.role).toBe('member');
      expectRefused(await supertest(ctx.service.app).post('/admin-only').set(apiKeyHeader(otherKey)), 403, 'Requires admin role or higher');
    });

    // V7.4.1 (logout), V7.4.5 (an administrator ends a member's sessions): the downstream follows.
    it('a session ended by logout, or by an admin, is refused once its end arrives; the member\'s other session is still remembered', async () => {
      await expectSessionEndsFollowed(ctx.app, await signupOwner(ctx.app), ctx.service, ctx.introspections);
    });

    it('names the session of a bearer token in the principal, and none for an API key', async () => {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      const app = express().use(ctx.service.auth).get('/principal', (req, res) => { res.json(principalOf(req)); });
      const byToken = await supertest(app).get('/principal').set(bearer(owner));
      expect(byToken.body).toEqual({
        tenantId: owner.tenantId, userId: owner.userId, role: 'owner', method: 'jwt', sessionId: (jwt.decode(owner.token) as { sid: string }).sid, amr: ['pwd'],
      });
      const byKey = await supertest(app).get('/principal').set(apiKeyHeader(key));
      expect(byKey.body).toEqual({ tenantId: owner.tenantId, userId: owner.userId, role: 'owner', method: 'api_key', amr: ['api_key'] });
    });

    it('a password change ends the tokens issued before it', async () => {
      const owner = await signupOwner(ctx.app);
      expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      const heard = ctx.service.nextChange((change) => change.kind === 'user' && change.userId === owner.userId);
      const changed = await request(ctx.app).post(`${AUTH}/password`).set(bearer(owner))
        .send({ current_password: PASSWORD, new_password: 'another good password' }).expect(200);
      await heard;
      expectRefused(await whoami(ctx.service, bearer(owner)), 401, 'Invalid or expired token');
      expect((await whoami(ctx.service, { Authorization: `Bearer ${changed.body.token}` })).status).toBe(200);
    });

    it('a remembered key is refused from its expiry on, without any event', async () => {
      const owner = await signupOwner(ctx.app);
      const key = (await request(ctx.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ expires_in_days: 1 })).body.api_key as string;
      expect((await whoami(ctx.service, apiKeyHeader(key))).status).toBe(200);
      ctx.clock.advance({ seconds: 86_400 });
      expectRefused(await whoami(ctx.service, apiKeyHeader(key)), 401, 'Invalid API key');
    });
  });

  describe('when the feed or Portcullis is lost', () => {
    it('checks every request afresh while the feed is down, and remembers again once it is back', async () => {
      const owner = await signupOwner(ctx.app);
      expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      const fanOut = ctx.useCases.credentialChanges as CredentialChangeFanOut;
      const down = ctx.service.nextFeed(false);
      fanOut.suspend(); // Portcullis itself stopped hearing changes: it resets the streams and refuses new ones
      await down;
      const before = ctx.introspections();
      for (let i = 0; i < 3; i += 1) expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      expect(ctx.introspections()).toBe(before + 3);

      const up = ctx.service.nextFeed(true);
      fanOut.resume(fanOut.position);
      await up;
      for (let i = 0; i < 3; i += 1) expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      expect(ctx.introspections()).toBe(before + 4);
    });

    it('Portcullis restarted: 503 while it is down, even for a remembered credential; a fresh check once it is back', async () => {
      const owner = await signupOwner(ctx.app);
      expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      const down = ctx.service.nextFeed(false);
      await ctx.server.stop();
      await down;
      const refused = await whoami(ctx.service, bearer(owner));
      expectRefused(refused, 503, 'Authentication unavailable');
      expect(refused.headers['retry-after']).toBe('5');
      expectRefused(await whoami(ctx.service, {}), 401, 'Missing authentication'); // decided without Portcullis

      const up = ctx.service.nextFeed(true);
      await ctx.server.start();
      await up;
      const before = ctx.introspections();
      expect((await whoami(ctx.service, bearer(owner))).status).toBe(200);
      expect(ctx.introspections()).toBe(before + 1);
    });

    it('a revoked service key: Portcullis answers the service 401, the service fails closed with 503 and loses its feed', async () => {
      const owner = await signupOwner(ctx.app);
      await ctx.manage.revoke('downstream');
      ctx.clock.advance({ seconds: 6 }); // past the few seconds a verified service key is trusted
      const down = ctx.service.nextFeed(false);
      expectRefused(await whoami(ctx.service, bearer(owner)), 503, 'Authentication unavailable');
      expect(ctx.service.errors.map((e) => e.message)).toContain('Portcullis refused this service key (missing, unknown or revoked)');
      await down; // the stream is closed at its next heartbeat
      expect(ctx.service.auth.feedConnected).toBe(false);
    });
  });

  it('a deliberate close() is no failure: the feed is reported closed, and nothing is warned (onError keeps its console.warn default)', async () => {
    const { rawKey } = await ctx.manage.create('closing', ALL_TENANTS);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const feed: boolean[] = [];
    const auth = portcullis({ url: ctx.server.url, serviceKey: rawKey, onFeed: (connected) => feed.push(connected) });
    try {
      await auth.feedReady();
      auth.close();
      expect(feed).toEqual([true, false]);
      expect(auth.feedConnected).toBe(false);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      auth.close();
      warn.mockRestore();
    }
  });

  it('Portcullis too slow: 503 once the introspection has taken timeoutMs, and the next request is asked afresh', async () => {
    // A Portcullis whose change feed opens but whose introspection never answers.
    const hanging: http.ServerResponse[] = [];
    const slow = new RunningServer((req, res) => {
      if (req.url?.endsWith('/changes')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: ready\ndata: {"heartbeat_ms":60000,"position":0}\n\n');
      }
      hanging.push(res);
    });
    await slow.start();
    const service = downstream(slow.url, 'pcsk_unused', { timeoutMs: 50 });
    try {
      await service.auth.feedReady();
      const token = jwt.sign({ userId: 'u', tenantId: 't', role: 'owner' }, TEST_JWT_SECRET);
      const refused = await whoami(service, { authorization: `Bearer ${token}` });
      expectRefused(refused, 503, 'Authentication unavailable');
      expect(service.errors.map((e) => e.message)).toContain('Portcullis did not answer the introspection');
      expectRefused(await whoami(service, { authorization: `Bearer ${token}` }), 503, 'Authentication unavailable');
      expect(hanging.filter((res) => !res.req.url?.endsWith('/changes'))).toHaveLength(2);
    } finally {
      service.auth.close();
      for (const res of hanging) res.destroy();
      await slow.stop();
    }
  });
});
