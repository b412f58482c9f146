import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import {
  createTestPortcullis, InsecureFastPasswordHasherForTestsOnly, InsecureHasherInProductionError, TestClock, type TestPortcullis,
} from '../../src/testing';
import { notesModule } from '../../examples/notes/notes-module';

const AUTH = '/api/v1/auth';

function expectError(res: Response, status: number, message: string): void {
  expect({ status: res.status, error: res.body?.error as unknown }).toEqual({ status, error: message });
}

describe('the test kit: every helper arranges the world the contract describes', () => {
  let pc: TestPortcullis;
  beforeEach(async () => {
    pc = await createTestPortcullis({ modules: [notesModule] });
  });
  afterEach(async () => {
    expect(pc.unexpectedErrors).toEqual([]);
    await pc.close();
  });

  it('makes a tenant whose owner is signed in as its owner, and can log in with the password given back', async () => {
    const acme = await pc.tenant({ name: 'Acme' });
    const me = await request(pc.app).get(`${AUTH}/me`).set(acme.owner.headers);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ tenant_id: acme.tenantId, user_id: acme.owner.userId, role: 'owner' });
    const login = await request(pc.app).post(`${AUTH}/login`).send({ email: acme.owner.email, password: acme.owner.password });
    expect(login.status).toBe(200);
  });

  it('makes a member of every role, each answered with that role, in the tenant and no other', async () => {
    const acme = await pc.tenant();
    const other = await pc.tenant({ name: 'Other' });
    const team = await pc.team(acme);
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
      const me = await request(pc.app).get(`${AUTH}/me`).set(team[role].headers);
      expect(me.body).toEqual({ tenant_id: acme.tenantId, user_id: team[role].userId, role });
    }
    const members = await request(pc.app).get(`${AUTH}/members`).set(team.admin.headers);
    expect(members.status).toBe(200);
    expect((members.body.members as Array<{ user_id: string }>).map((m) => m.user_id).sort())
      .toEqual(Object.values(team).map((m) => m.userId).sort());
    expect(acme.tenantId).not.toBe(other.tenantId);
  });

  it('gives a viewer the contract\'s 403 on admin routes and on a module\'s member route', async () => {
    const viewer = await pc.member(await pc.tenant(), 'viewer');
    expectError(await request(pc.app).post(`${AUTH}/invite`).set(viewer.headers).send({ email: 'x@example.com' }), 403, 'Requires admin role or higher');
    expectError(await request(pc.app).get(`${AUTH}/members`).set(viewer.headers), 403, 'Requires admin role or higher');
    expectError(await request(pc.app).post('/api/v1/notes').set(viewer.headers).send({ title: 'x' }), 403, 'Requires member role or higher');
    expect((await request(pc.app).get('/api/v1/notes').set(viewer.headers)).status).toBe(200);
  });

  it('makes an API key for any member that acts with the member\'s role, and keeps their token working', async () => {
    const acme = await pc.tenant();
    const viewer = await pc.member(acme, 'viewer');
    const key = await pc.apiKey(viewer, { name: 'ci' });
    expect(key.apiKey).toMatch(/^pcls_/);
    expect(key.headers).toEqual({ 'x-api-key': key.apiKey });
    const byKey = await request(pc.app).get(`${AUTH}/me`).set(key.headers);
    expect(byKey.body).toEqual({ tenant_id: acme.tenantId, user_id: viewer.userId, role: 'viewer' });
    expect((await request(pc.app).get(`${AUTH}/me`).set(viewer.headers)).body.role).toBe('viewer');
    expectError(await request(pc.app).post(`${AUTH}/invite`).set(key.headers).send({ email: 'y@example.com' }), 403, 'Requires admin role or higher');
    const ownerKey = await pc.apiKey(acme.owner);
    expect((await request(pc.app).post(`${AUTH}/invite`).set(ownerKey.headers).send({ email: 'z@example.com' })).status).toBe(201);
  });

  it('makes a revoked key, refused with 401 Invalid API key', async () => {
    const member = await pc.member(await pc.tenant(), 'member');
    const key = await pc.apiKey(member);
    expect((await request(pc.app).get('/api/v1/notes').set(key.headers)).status).toBe(200);
    await pc.revokeApiKey(key);
    expectError(await request(pc.app).get('/api/v1/notes').set(key.headers), 401, 'Invalid API key');
    const revoked = await pc.revokedApiKey(member);
    expectError(await request(pc.app).get(`${AUTH}/me`).set(revoked.headers), 401, 'Invalid API key');
  });

  it('makes an expired key, refused with 401 Invalid API key, and expires a live one when time moves on', async () => {
    const acme = await pc.tenant();
    const expired = await pc.expiredApiKey(acme.owner);
    expect(expired.expiresAt!.getTime()).toBeLessThan(pc.clock.now().getTime());
    expectError(await request(pc.app).get(`${AUTH}/me`).set(expired.headers), 401, 'Invalid API key');

    const daily = await pc.apiKey(acme.owner, { expiresInDays: 1 });
    expect((await request(pc.app).get(`${AUTH}/me`).set(daily.headers)).status).toBe(200);
    pc.advanceTime({ hours: 23, minutes: 59 });
    expect((await request(pc.app).get(`${AUTH}/me`).set(daily.headers)).status).toBe(200);
    pc.advanceTime({ minutes: 1 });
    expectError(await request(pc.app).get(`${AUTH}/me`).set(daily.headers), 401, 'Invalid API key');
  });

  it('makes an invite whose raw token signs up, and which is refused with 400 Invite expired once time passes its expiry', async () => {
    const acme = await pc.tenant();
    const invite = await pc.invite(acme, { role: 'viewer' });
    const accepted = await request(pc.app).post(`${AUTH}/signup`).send({ email: invite.email, password: 'a long enough password', invite_token: invite.inviteToken });
    expect(accepted.status).toBe(201);
    expect(accepted.body.tenant_id).toBe(acme.tenantId);

    const late = await pc.invite(acme);
    expect(late.expiresAt.getTime() - pc.clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    pc.advanceTime({ days: 7 });
    expectError(
      await request(pc.app).post(`${AUTH}/signup`).send({ email: late.email, password: 'a long enough password', invite_token: late.inviteToken }),
      400, 'Invite expired',
    );
  });

  it('makes a removed member whose token is refused with 401 Invalid or expired token, and whose keys go with them', async () => {
    const acme = await pc.tenant();
    const admin = await pc.member(acme, 'admin');
    const key = await pc.apiKey(admin);
    await pc.removeMember(admin);
    expectError(await request(pc.app).get(`${AUTH}/me`).set(admin.headers), 401, 'Invalid or expired token');
    expectError(await request(pc.app).get(`${AUTH}/me`).set(key.headers), 401, 'Invalid API key');
    const removed = await pc.removedMember(acme, 'viewer');
    expectError(await request(pc.app).get('/api/v1/notes').set(removed.headers), 401, 'Invalid or expired token');
  });

  it('starts at the instant given and serves the modules\' API reference', async () => {
    const start = new Date('2030-01-01T00:00:00.000Z');
    const at = await createTestPortcullis({ clock: start, modules: [notesModule] });
    const acme = await at.tenant();
    const invite = await at.invite(acme);
    expect(invite.expiresAt.toISOString()).toBe('2030-01-08T00:00:00.000Z');
    const reference = await request(at.app).get('/api/v1/openapi.json');
    expect(Object.keys(reference.body.paths as object)).toContain('/api/v1/notes');
  });
});

describe('TestClock', () => {
  it('moves forward by the duration given, never back', () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00.000Z'));
    expect(clock.advance({ days: 1, hours: 2, minutes: 3, seconds: 4 }).toISOString()).toBe('2030-01-02T02:03:04.000Z');
    expect(() => clock.advance({ seconds: -1 })).toThrow(RangeError);
    expect(clock.now().toISOString()).toBe('2030-01-02T02:03:04.000Z');
  });

  it('puts the time back after work done in the past, even when the work fails', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00.000Z'));
    expect(await clock.whileAgo({ days: 1 }, async () => clock.now().toISOString())).toBe('2029-12-31T00:00:00.000Z');
    await expect(clock.whileAgo({ days: 1 }, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });
});

describe('InsecureFastPasswordHasherForTestsOnly', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = saved;
  });

  it('refuses to be constructed, and the kit to start, when NODE_ENV is production', async () => {
    process.env.NODE_ENV = 'production';
    expect(() => new InsecureFastPasswordHasherForTestsOnly()).toThrow(InsecureHasherInProductionError);
    await expect(createTestPortcullis()).rejects.toThrow('refuses to run with NODE_ENV=production');
  });

  it.each(['production', 'Production', 'PRODUCTION', ' production ', 'prod', 'Prod', 'PROD', ' prod\t', 'pro duction'])(
    'refuses NODE_ENV=%j, however production is spelled, given or read from the environment', async (spelling) => {
      expect(() => new InsecureFastPasswordHasherForTestsOnly(spelling)).toThrow(InsecureHasherInProductionError);
      process.env.NODE_ENV = spelling;
      expect(() => new InsecureFastPasswordHasherForTestsOnly()).toThrow(InsecureHasherInProductionError);
      await expect(createTestPortcullis()).rejects.toThrow(InsecureHasherInProductionError);
    });

  it.each(['test', 'development', 'Test', '', undefined])('runs with NODE_ENV=%j', (value) => {
    expect(() => new InsecureFastPasswordHasherForTestsOnly(value)).not.toThrow();
  });

  it('verifies its own hashes only, and production\'s hasher never accepts one of them', async () => {
    const hasher = new InsecureFastPasswordHasherForTestsOnly('test');
    const stored = await hasher.hash('secret password');
    expect(stored).not.toContain('secret password');
    expect(await hasher.verify('secret password', stored)).toBe(true);
    expect(await hasher.verify('wrong password', stored)).toBe(false);
    expect(await hasher.verify('secret password', 'scrypt$1024$8$1$c2FsdA==$a2V5')).toBe(false);
    expect(await new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }).verify('secret password', stored)).toBe(false);
    expect(hasher.needsRehash(stored)).toBe(false);
    expect(await hasher.hash('secret password')).not.toBe(stored);
  });
});
