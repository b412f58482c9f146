import { ALL_TENANTS, namedTenants } from '../../src/domain/service-key';
import jwt from 'jsonwebtoken';
import { Registry } from 'prom-client';
import { request } from '../support/contract-request';
import { HttpMetrics } from '../../src/adapters/http/middleware/http-metrics';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { openMemoryStorage } from '../../src/bootstrap/database';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { buildTestApp } from '../support/http-app';
import { TestClock } from '../../src/testing/test-clock';
import { TEST_JWT_SECRET } from '../support/test-use-cases';
import { serviceKeyManager } from '../support/verifier-fixtures';

const INTROSPECT = `${AUTH}/introspect`;

async function setup() {
  const clock = new TestClock();
  const serviceKeys = new MemoryServiceKeys();
  const manage = serviceKeyManager(serviceKeys, clock);
  const { rawKey } = await manage.create('reporting', ALL_TENANTS);
  const metrics = new HttpMetrics(new Registry());
  const built = await buildTestApp({}, { serviceKeys, clock }, { metrics });
  const introspect = (body: object, key: string | null = rawKey) => {
    const req = request(built.app).post(INTROSPECT);
    return key === null ? req.send(body) : req.set('x-service-key', key).send(body);
  };
  return { ...built, clock, manage, rawKey, metrics, introspect };
}

describe('POST /api/v1/auth/introspect', () => {
  it('answers a valid bearer token with its principal, method, expiry and session', async () => {
    const { app, introspect } = await setup();
    const owner = await signupOwner(app);
    const res = await introspect({ token: owner.token });
    const { exp, sid } = jwt.decode(owner.token) as { exp: number; sid: string };
    expect(res.status).toBe(200);
    expect(typeof sid).toBe('string');
    expect(res.body).toEqual({
      active: true, position: 0, tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'jwt', exp, session_id: sid, amr: ['pwd'],
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a token issued without a session without session_id', async () => {
    const { app, introspect } = await setup();
    const owner = await signupOwner(app);
    const { authVersion } = jwt.decode(owner.token) as { authVersion: number };
    const sessionless = jwt.sign({ tenantId: owner.tenantId, userId: owner.userId, email: owner.email, role: 'owner', authVersion }, TEST_JWT_SECRET, { expiresIn: '1h' });
    const res = await introspect({ token: sessionless });
    expect(res.body).toEqual({
      active: true, position: expect.any(Number), tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'jwt', exp: expect.any(Number), amr: ['pwd'],
    });
  });

  it('answers a valid API key with its owner, current role and key id, and without exp when the key never expires', async () => {
    const { app, introspect } = await setup();
    const owner = await signupOwner(app);
    const apiKey = await createApiKey(app, owner);
    const keys = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner));
    const res = await introspect({ api_key: apiKey });
    expect(res.body).toEqual({
      active: true, position: 0, tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner', method: 'api_key', key_id: keys.body.api_keys[0].id, amr: ['api_key'],
    });
  });

  it('answers active: false, and nothing more, for every refusal of authentication', async () => {
    const { app, introspect, clock } = await setup();
    const owner = await signupOwner(app);
    const member = await joinWithRole(app, owner, 'member');
    const apiKey = await createApiKey(app, owner);
    const expiring = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ expires_in_days: 1 });
    const forged = jwt.sign({ tenantId: owner.tenantId, userId: owner.userId, email: owner.email, role: 'owner' }, 'another-secret-of-at-least-32-bytes!!', { expiresIn: '1h' });
    const expired = jwt.sign({ tenantId: owner.tenantId, userId: owner.userId, email: owner.email, role: 'owner', exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET);
    const memberToken = member.token;
    await request(app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
    const keys = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner));
    const revokedKey = await createApiKey(app, owner);
    const revokedId = (await request(app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys
      .find((k: { id: string }) => !keys.body.api_keys.some((old: { id: string }) => old.id === k.id)).id;
    await request(app).delete(`${AUTH}/api-keys/${revokedId}`).set(bearer(owner)).expect(200);
    clock.advance({ seconds: 2 * 86_400 });

    for (const body of [
      { api_key: 'not-a-key' },
      { api_key: 'pcls_00000000000000000000000000000000' },
      { api_key: revokedKey },
      { api_key: expiring.body.api_key },
      { token: 'garbage' },
      { token: forged },
      { token: expired },
      { token: memberToken }, // re-roled since it was issued: its auth version is behind
      { token: '' },
    ]) {
      const res = await introspect(body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 200, answer: { active: false, position: 2 } });
    }
    expect((await introspect({ api_key: apiKey })).body.active).toBe(true);
  });

  it('carries the change position it is at least as fresh as, which each committed credential change moves on', async () => {
    const { app, introspect } = await setup();
    const owner = await signupOwner(app);
    const member = await joinWithRole(app, owner, 'member');
    const before = (await introspect({ token: owner.token })).body.position as number;
    await request(app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
    const after = await introspect({ token: owner.token });
    expect(after.body.position).toBe(before + 1);
    // A position the instance has already applied is no reason to wait; one its log does not hold yet is answered as far as it got.
    expect((await introspect({ token: owner.token, min_position: before })).body.position).toBe(before + 1);
    expect((await introspect({ token: member.token, min_position: before + 100 })).body).toEqual({ active: false, position: before + 1 });
  });

  it('refuses a min_position that is not a whole number from 0 on with 400 naming it', async () => {
    const { introspect } = await setup();
    for (const min_position of [-1, 1.5, '3', null, 2 ** 53]) {
      const res = await introspect({ token: 'x', min_position });
      expect(res.status).toBe(400);
      expect(new Set(res.body.details.map((d: { field: string }) => d.field))).toEqual(new Set(['min_position']));
    }
  });

  it('a service key scoped to named tenants is answered active: false for every other tenant\'s token and key', async () => {
    const { app, introspect, manage } = await setup();
    const mine = await signupOwner(app);
    const theirs = await signupOwner(app);
    const myKey = await createApiKey(app, mine);
    const theirKey = await createApiKey(app, theirs);
    const { rawKey: scoped } = await manage.create('scoped', namedTenants([mine.tenantId]));
    expect((await introspect({ token: mine.token }, scoped)).body).toMatchObject({ active: true, tenant_id: mine.tenantId });
    expect((await introspect({ api_key: myKey }, scoped)).body).toMatchObject({ active: true, tenant_id: mine.tenantId });
    for (const body of [{ token: theirs.token }, { api_key: theirKey }]) {
      expect((await introspect(body, scoped)).body).toEqual({ active: false, position: expect.any(Number) });
      expect((await introspect(body)).body).toMatchObject({ active: true, tenant_id: theirs.tenantId }); // the all-tenants key
    }
  });

  it('refuses a caller without a valid service key with 401, whatever the body', async () => {
    const { introspect, manage, clock } = await setup();
    expectError(await introspect({ token: 'x' }, null), 401, 'Invalid or missing service key');
    expectError(await introspect({ token: 'x' }, 'pcsk_short'), 401, 'Invalid or missing service key');
    expectError(await introspect({ token: 'x' }, `pcsk_${'0'.repeat(64)}`), 401, 'Invalid or missing service key');
    const { rawKey: other } = await manage.create('other', ALL_TENANTS);
    expect((await introspect({ token: 'x' }, other)).status).toBe(200);
    await manage.revoke('other');
    clock.advance({ seconds: 6 }); // past the time a verified key is trusted without a lookup
    expectError(await introspect({ token: 'x' }, other), 401, 'Invalid or missing service key');
  });

  it('refuses a body without exactly one credential with 400 naming both fields', async () => {
    const { introspect } = await setup();
    for (const body of [{}, { token: 'a', api_key: 'b' }]) {
      const res = await introspect(body);
      expectError(res, 400, 'Exactly one of token and api_key is required');
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['token', 'api_key']);
    }
    expectError(await introspect({ token: 42 }), 400, 'token must be a string');
    expectError(await introspect({ token: 'a', scope: 'x' }), 400, 'property scope should not exist');
  });

  it('refuses a null credential with 400 naming it, rather than taking null for a credential', async () => {
    const { introspect } = await setup();
    expectError(await introspect({ api_key: null }), 400, 'api_key must be a string');
    expectError(await introspect({ token: null }), 400, 'token must be a string');
    expectError(await introspect({ token: null, api_key: 'pcls_0123456789abcdef0123456789abcdef' }), 400, 'token must be a string');
  });

  it('is limited per service key, not by the global per-address limit', async () => {
    const serviceKeys = new MemoryServiceKeys();
    const { rawKey } = await serviceKeyManager(serviceKeys).create('busy', ALL_TENANTS);
    const { rawKey: other } = await serviceKeyManager(serviceKeys).create('quiet', ALL_TENANTS);
    const { app } = await buildTestApp({ rateLimits: { global: 2, login: 5, signup: 5, introspect: 4 } }, { serviceKeys });
    const send = (key: string) => request(app).post(INTROSPECT).set('x-service-key', key).send({ token: 'x' });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await send(rawKey)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await send(other)).status).toBe(200);
  });

  it('counts every call by result in the metrics', async () => {
    const { app, introspect, metrics } = await setup();
    const owner = await signupOwner(app);
    await introspect({ token: owner.token });
    await introspect({ token: 'nope' });
    await introspect({ token: "nope" }, null);
    await introspect({});
    const text = await metrics.registry.metrics();
    expect(text).toContain('portcullis_introspections_total{result="active"} 1');
    expect(text).toContain('portcullis_introspections_total{result="inactive"} 1');
    expect(text).toContain('portcullis_introspections_total{result="unauthorized"} 1');
    expect(text).toContain('portcullis_introspections_total{result="invalid_input"} 1');
  });

  it('answers the same whether served directly (the exact path) or by Express (any other spelling)', async () => {
    const { app, rawKey } = await setup();
    const owner = await signupOwner(app);
    const json = { 'content-type': 'application/json' };
    const cases: Array<{ headers: Record<string, string>; body?: string; status: number }> = [
      { headers: json, body: JSON.stringify({ token: owner.token }), status: 200 },
      { headers: json, body: JSON.stringify({ api_key: 'pcls_x' }), status: 200 },
      { headers: json, body: '{"token":', status: 400 },
      { headers: json, body: '[1]', status: 400 },
      { headers: json, body: '{"__proto__":{"a":1},"token":"x"}', status: 400 },
      { headers: { 'content-type': 'text/plain' }, body: 'token=x', status: 415 },
      { headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"token":"x"}', status: 415 },
      { headers: json, body: JSON.stringify({ token: 'x'.repeat(200_000) }), status: 413 },
      { headers: {}, status: 400 },
    ];
    for (const { headers, body, status } of cases) {
      const send = (path: string, key: string | null) => {
        const req = request(app).post(path).set(headers);
        if (key) req.set('x-service-key', key);
        return body === undefined ? req : req.send(body);
      };
      for (const key of [rawKey, null]) {
        const direct = await send(INTROSPECT, key);
        const viaExpress = await send(`${INTROSPECT}?via=express`, key);
        expect({ status: viaExpress.status, body: viaExpress.body }).toEqual({ status: direct.status, body: direct.body });
        expect(viaExpress.headers['content-type']).toBe(direct.headers['content-type']);
        expect(direct.status).toBe(key ? status : 401);
      }
    }
  });

  // The freshness round is the costly part of a credential check on Postgres (docs/benchmarks.md):
  // the guard's confirmation began after the request arrived, so it serves the introspection too.
  it('waits for one freshness round per call, its service-key check\'s, and still answers from a fresh state', async () => {
    const storage = createMemoryStorage();
    let headReads = 0;
    const readHead = storage.changeLog.head.bind(storage.changeLog);
    storage.changeLog.head = () => {
      headReads += 1;
      return readHead();
    };
    const serviceKeys = new MemoryServiceKeys();
    const clock = new TestClock();
    const { rawKey } = await serviceKeyManager(serviceKeys, clock).create('reporting', ALL_TENANTS);
    // As on Postgres: every credential check confirms freshness by reading the change log's head.
    const { app } = await buildTestApp({}, { opened: { ...openMemoryStorage(storage), shared: true }, serviceKeys, clock });
    const owner = await signupOwner(app);
    const member = await joinWithRole(app, owner, 'member');
    for (const body of [{ token: owner.token }, { token: member.token }]) {
      const before = headReads;
      const res = await request(app).post(INTROSPECT).set('x-service-key', rawKey).send(body).expect(200);
      expect(res.body.active).toBe(true);
      expect(headReads - before).toBe(1);
    }
    await request(app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)).expect(200);
    const before = headReads;
    const res = await request(app).post(INTROSPECT).set('x-service-key', rawKey).send({ token: member.token }).expect(200);
    expect(res.body.active).toBe(false);
    expect(headReads - before).toBe(1);
  });
});
