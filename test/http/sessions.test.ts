import jwt from 'jsonwebtoken';
import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, GENEROUS_RATE_LIMITS, type TestApp } from '../support/http-app';
import {
  type Account, AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner,
} from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { assembleForTest, testConfig, TEST_JWT_SECRET } from '../support/test-use-cases';
import type { Assembly } from '../../src/bootstrap/assemble';
import { describeSessionsFlow } from '../http-db/sessions-flow';

const INVALID_TOKEN = 'Invalid or expired token';
const NEW_PASSWORD = 'a brand new passphrase';

interface ListedSession {
  readonly id: string;
  readonly created_at: string;
  readonly last_seen_at: string;
  readonly user_agent: string | null;
  readonly ip: string | null;
  readonly current: boolean;
}

describeSessionsFlow('memory', async () => {
  const t = await buildTestApp();
  return { app: t.app, close: () => t.assembly.close() };
});

describe('sessions (ASVS V7.3.1, V7.4.1, V7.4.3, V7.4.5, V7.5.2)', () => {
  const IDLE_SECONDS = 3_600;
  let t: TestApp;
  let clock: TestClock;
  /** The same service with SESSION_IDLE_TIMEOUT_SECONDS set (off by default), on its own memory storage. */
  let idle: Assembly;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
    const config = testConfig({}, { rateLimits: { ...testConfig().rateLimits, ...GENEROUS_RATE_LIMITS } });
    idle = await assembleForTest({ clock }, { ...config, sessions: { ...config.sessions, idleTimeoutSeconds: IDLE_SECONDS } });
  });
  afterAll(async () => {
    await t.assembly.close();
    await idle.close();
  });

  const me = (account: Pick<Account, 'token'>) => request(t.app).get(`${AUTH}/me`).set(bearer(account));
  const list = async (headers: Record<string, string>): Promise<ListedSession[]> => {
    const res = await request(t.app).get(`${AUTH}/sessions`).set(headers);
    expect(res.status).toBe(200);
    return res.body.sessions as ListedSession[];
  };
  const login = async (account: Account, app = t.app): Promise<Account> => {
    const res = await request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD });
    expect(res.status).toBe(200);
    return { ...account, token: res.body.token as string };
  };
  /** A correctly signed token with the contract's claims only: no `sid`, as tokens were before sessions. */
  const sessionless = (account: Account) => jwt.sign(
    { tenantId: account.tenantId, userId: account.userId, email: account.email, role: account.role, authVersion: 0 },
    TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '24h' },
  );
  const auditActions = async (owner: Account, action: string) => {
    const res = await request(t.app).get(`${AUTH}/audit-events`).query({ action }).set(bearer(owner));
    expect(res.status).toBe(200);
    return res.body.events as { target_id: string; actor_user_id: string | null; details: Record<string, unknown> }[];
  };

  it('a token names its session in `sid`; the contract\'s claims, answer and 24-hour lifetime stay', async () => {
    const owner = await signupOwner(t.app);
    const claims = jwt.decode(owner.token) as Record<string, unknown>;
    expect(claims).toMatchObject({ tenantId: owner.tenantId, userId: owner.userId, role: 'owner', sid: expect.any(String) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(24 * 60 * 60);
    const [only] = await list(bearer(owner));
    expect(only).toEqual({
      id: claims.sid, created_at: clock.now().toISOString(), last_seen_at: expect.any(String), user_agent: null, ip: expect.any(String), current: true,
    });
  });

  it('a correctly signed token without `sid` is still accepted as before; it lists sessions with none current, and has none to end', async () => {
    const owner = await signupOwner(t.app);
    const old = { token: sessionless(owner) };
    expect((await me(old)).status).toBe(200);
    expect((await list(bearer(old))).map((s) => s.current)).toEqual([false]);
    expectError(await request(t.app).post(`${AUTH}/logout`).set(bearer(old)), 400, 'No session to end');
    // Ending "all but the current" ends every one: this token has no session to keep.
    expect((await request(t.app).delete(`${AUTH}/sessions`).set(bearer(old))).body).toEqual({ ended: 1 });
    expectError(await me(owner), 401, INVALID_TOKEN);
    expect((await me(old)).status).toBe(200);
  });

  it('an API key lists its owner\'s sessions with none current, and has no session to end (400)', async () => {
    const owner = await signupOwner(t.app);
    const key = await createApiKey(t.app, owner);
    await login(owner);
    expect((await list({ 'x-api-key': key })).map((s) => s.current)).toEqual([false, false]);
    expectError(await request(t.app).post(`${AUTH}/logout`).set('x-api-key', key), 400, 'No session to end');
  });

  it('ending another member\'s, another tenant\'s, an ended or a malformed session is 404 Session not found', async () => {
    const owner = await signupOwner(t.app);
    const colleague = await joinWithRole(t.app, owner, 'admin');
    const stranger = await signupOwner(t.app, 'Elsewhere');
    const [colleagues] = await list(bearer(colleague));
    const [strangers] = await list(bearer(stranger));
    const [mine] = await list(bearer(owner));
    await request(t.app).delete(`${AUTH}/sessions/${mine!.id}`).set(bearer(await login(owner))).expect(200);

    for (const id of [colleagues!.id, strangers!.id, mine!.id, 'not-a-session', '00000000-0000-4000-8000-000000000000']) {
      expectError(await request(t.app).delete(`${AUTH}/sessions/${id}`).set(bearer(await login(owner))), 404, 'Session not found');
    }
    expect((await me(colleague)).status).toBe(200);
    expect((await me(stranger)).status).toBe(200);
  });

  it('logout and ending sessions are in the audit trail: session.started for every way in, session.ended saying how', async () => {
    const owner = await signupOwner(t.app);
    const member = await joinWithRole(t.app, owner, 'member');
    const second = await login(member);
    await request(t.app).post(`${AUTH}/logout`).set(bearer(second)).expect(204);
    await request(t.app).delete(`${AUTH}/members/${member.userId}/sessions`).set(bearer(owner)).expect(200);

    const started = await auditActions(owner, 'session.started');
    expect(started.map((e) => e.details.how)).toEqual(['login', 'invitation', 'signup']);
    const ended = await auditActions(owner, 'session.ended');
    expect(ended.map((e) => [e.details.reason, e.actor_user_id, e.details.count])).toEqual([
      ['admin', owner.userId, 1],
      ['logout', member.userId, 1],
    ]);
  });

  it('DELETE /members/:id/sessions: admin or higher, an owner\'s only by an owner, an unknown member 404', async () => {
    const owner = await signupOwner(t.app);
    const admin = await joinWithRole(t.app, owner, 'admin');
    const member = await joinWithRole(t.app, owner, 'member');
    const end = (caller: Account, id: string) => request(t.app).delete(`${AUTH}/members/${id}/sessions`).set(bearer(caller));

    expectError(await end(member, admin.userId), 403, 'Requires admin role or higher');
    expectError(await end(admin, owner.userId), 403, 'Only an owner can change, remove or grant the owner role');
    expect((await me(owner)).status).toBe(200);
    expectError(await end(admin, '00000000-0000-4000-8000-000000000000'), 404, 'Member not found');
    expectError(await end(admin, (await signupOwner(t.app, 'Other')).userId), 404, 'Member not found');
    expect((await end(admin, member.userId)).body).toEqual({ ended: 1 });
    expect((await end(owner, admin.userId)).body).toEqual({ ended: 1 });
    expectError(await me(admin), 401, INVALID_TOKEN);
  });

  it('a password change ends the other sessions; the caller goes on in the same session with the new token', async () => {
    const owner = await signupOwner(t.app);
    const other = await login(owner);
    const changed = await request(t.app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    const renewed = { token: changed.body.token as string };
    expect((jwt.decode(renewed.token) as { sid: string }).sid).toBe((jwt.decode(owner.token) as { sid: string }).sid);
    expectError(await me(other), 401, INVALID_TOKEN);
    expect((await list(bearer(renewed))).map((s) => s.current)).toEqual([true]);
  });

  it('a password reset ends every session and starts a new one; a removal ends the member\'s sessions', async () => {
    const owner = await signupOwner(t.app, 'Reset Co');
    const other = await login(owner);
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email: owner.email })).status).toBe(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverAllDue();
    const link = linkToken((t.assembly.mailer as DevelopmentMailbox).latestTo(owner.email)!.text, 'reset-password');
    const reset = await request(t.app).post(`${AUTH}/password/reset`).send({ token: link, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    const fresh = { token: reset.body.token as string };
    expect((await list(bearer(fresh))).map((s) => s.current)).toEqual([true]);
    expectError(await me(other), 401, INVALID_TOKEN);
    const endedByReset = await auditActions({ ...owner, token: fresh.token }, 'session.ended');
    expect(endedByReset[0]!.details).toMatchObject({ reason: 'password_reset', count: 2 });

    const member = await joinWithRole(t.app, { ...owner, token: fresh.token }, 'member');
    await request(t.app).delete(`${AUTH}/members/${member.userId}`).set(bearer(fresh)).expect(200);
    const endedByRemoval = await auditActions({ ...owner, token: fresh.token }, 'session.ended');
    expect(endedByRemoval[0]!.details).toMatchObject({ reason: 'removal', user_id: member.userId, count: 1 });
  });

  it('a role change keeps today\'s rule: the old token is refused, the session is not ended', async () => {
    const owner = await signupOwner(t.app);
    const member = await joinWithRole(t.app, owner, 'member');
    await request(t.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
    expectError(await me(member), 401, INVALID_TOKEN);
    expect(await list(bearer(await login(member)))).toHaveLength(2);
  });

  it(`a session unused for longer than SESSION_IDLE_TIMEOUT_SECONDS is refused and no longer listed (V7.3.1)`, async () => {
    const owner = await signupOwner(idle.listener);
    const other = await login(owner, idle.listener);
    const meOn = (account: Pick<Account, 'token'>) => request(idle.listener).get(`${AUTH}/me`).set(bearer(account));

    clock.advance({ seconds: IDLE_SECONDS - 60 });
    expect((await meOn(owner)).status).toBe(200); // used in time: its idle time starts again
    clock.advance({ seconds: IDLE_SECONDS - 60 });
    expect((await meOn(owner)).status).toBe(200);
    expectError(await meOn(other), 401, INVALID_TOKEN);
    const listed = await request(idle.listener).get(`${AUTH}/sessions`).set(bearer(owner));
    expect((listed.body.sessions as ListedSession[]).map((s) => s.current)).toEqual([true]);
    expect((await request(idle.listener).get(`${AUTH}/me`).set(bearer({ token: sessionless(owner) }))).status).toBe(200);
  });

  it('last seen moves with use, written in batches: one write for many sessions (listed as this instance saw it)', async () => {
    const owner = await signupOwner(t.app);
    const before = (await list(bearer(owner)))[0]!;
    clock.advance({ minutes: 5 });
    await me(owner);
    const after = (await list(bearer(owner)))[0]!;
    expect(after.last_seen_at).toBe(clock.now().toISOString());
    expect(after.last_seen_at > before.last_seen_at).toBe(true);
    await t.assembly.sessionActivity.flush?.();
    expect((await t.storage.repos.sessions.findLive(owner.tenantId, after.id))?.lastSeenAt.toISOString()).toBe(after.last_seen_at);
  });
});
