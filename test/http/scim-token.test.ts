import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, bearer, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { expectScimError, SCIM, scimHeaders, scimTokenOf } from '../support/scim-fixtures';

const TOKEN = `${AUTH}/sso/scim-token`;

describe('the tenant\'s SCIM token', () => {
  let t: TestApp;
  let clock: TestClock;
  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
  });
  afterAll(() => t.assembly.close());

  it('is made by an owner and shown once; admins see only its dates; a new one replaces the old at once', async () => {
    const owner = await signupOwner(t.app);
    const admin = await joinWithRole(t.app, owner, 'admin');
    expect((await request(t.app).get(TOKEN).set(bearer(admin))).body).toEqual({ exists: false, created_at: null, last_used_at: null });
    expectError(await request(t.app).post(TOKEN).set(bearer(admin)), 403, 'Requires owner role or higher');

    const created = await request(t.app).post(TOKEN).set(bearer(owner));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ token: expect.stringMatching(/^pcscim_[0-9a-f]{64}$/), created_at: clock.now().toISOString() });
    const first = created.body.token as string;
    expect((await request(t.app).get(TOKEN).set(bearer(admin))).body).toEqual({ exists: true, created_at: clock.now().toISOString(), last_used_at: null });

    clock.advance({ seconds: 30 });
    expect((await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(first))).status).toBe(200);
    expect((await request(t.app).get(TOKEN).set(bearer(owner))).body.last_used_at).toBe(clock.now().toISOString());

    const second = await scimTokenOf(t.app, owner);
    expectScimError(await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(first)), 401, 'Invalid SCIM token');
    expect((await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(second))).status).toBe(200);
    const events = (await request(t.app).get(`${AUTH}/audit-events`).query({ action: 'scim.token_created' }).set(bearer(owner))).body.events;
    expect(events.map((e: { details: unknown; actor_user_id: string }) => [e.details, e.actor_user_id])).toEqual([
      [{ replaced: true }, owner.userId], [{ replaced: false }, owner.userId],
    ]);
  });

  it('is revoked by an owner: refused from the next request, recorded; a second revocation is a 404', async () => {
    const owner = await signupOwner(t.app);
    const token = await scimTokenOf(t.app, owner);
    expect((await request(t.app).delete(TOKEN).set(bearer(owner))).status).toBe(204);
    expectScimError(await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(token)), 401, 'Invalid SCIM token');
    expectError(await request(t.app).delete(TOKEN).set(bearer(owner)), 404, 'No SCIM token');
    const events = (await request(t.app).get(`${AUTH}/audit-events`).query({ action: 'scim.token_revoked' }).set(bearer(owner))).body.events;
    expect(events).toEqual([expect.objectContaining({ actor_user_id: owner.userId, target_id: owner.tenantId })]);
  });

  it('V7.5.1: making or revoking it wants a recent sign-in', async () => {
    const owner = await signupOwner(t.app);
    clock.advance({ seconds: 601 });
    expectError(await request(t.app).post(TOKEN).set(bearer(owner)), 403, 'Recent authentication required');
    expectError(await request(t.app).delete(TOKEN).set(bearer(owner)), 403, 'Recent authentication required');
  });

  it('a missing, malformed or unknown bearer is one 401 in SCIM\'s format; a member\'s own token is no SCIM token', async () => {
    const owner = await signupOwner(t.app);
    for (const headers of [{}, { Authorization: 'Bearer pcscim_nope' }, { Authorization: `Bearer pcscim_${'0'.repeat(64)}` }, bearer(owner), { Authorization: 'Basic abc' }]) {
      expectScimError(await request(t.app).get(`${SCIM}/Users`).set(headers), 401, 'Invalid SCIM token');
    }
  });
});

describe('the SCIM rate limit', () => {
  it('counts per token, not per address: one tenant\'s provider spending its limit leaves another\'s alone', async () => {
    const t = await buildTestApp({ rateLimits: { global: 100_000, login: 100_000, signup: 100_000, scim: 2 } });
    try {
      const a = await scimTokenOf(t.app, await signupOwner(t.app));
      const b = await scimTokenOf(t.app, await signupOwner(t.app));
      for (let i = 0; i < 2; i += 1) expect((await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(a))).status).toBe(200);
      const refused = await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(a));
      expectScimError(refused, 429, `Too many requests, retry after ${refused.headers['retry-after']} seconds`);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await request(t.app).get(`${SCIM}/Users`).set(scimHeaders(b))).status).toBe(200);
    } finally {
      await t.assembly.close();
    }
  });
});
