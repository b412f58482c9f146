import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createInvite, expectError, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { TestClock } from '../../src/testing/test-clock';
import { uniqueEmail } from '../support/test-use-cases';
import type { RequestListener } from 'node:http';

interface ListedInvite { id: string; email: string; role: string; expires_at: string; created_at: string }

async function listInvites(app: RequestListener, admin: Account): Promise<ListedInvite[]> {
  const res = await request(app).get(`${AUTH}/invites`).set(bearer(admin));
  expect(res.status).toBe(200);
  return res.body.invites as ListedInvite[];
}

async function idOf(app: RequestListener, admin: Account, email: string): Promise<string> {
  const found = (await listInvites(app, admin)).find((i) => i.email === email.toLowerCase());
  if (!found) throw new Error(`no pending invite for ${email}`);
  return found.id;
}

describe('POST /api/v1/auth/invite', () => {
  it('answers 201 with a 64-hex token and an ISO expiry', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00.000Z'));
    const { app } = await buildTestApp({}, { clock, inviteTtlSeconds: 86_400 });
    const owner = await signupOwner(app);
    const res = await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: uniqueEmail(), role: 'viewer' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ invite_token: expect.stringMatching(/^[0-9a-f]{64}$/), expires_at: '2030-01-02T00:00:00.000Z' });
  });

  it.each(['admin', 'member', 'viewer'])('accepts role %s', async (role) => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner, { role });
    expect((await listInvites(app, owner))[0]).toMatchObject({ email: invite.email.toLowerCase(), role });
  });
});

describe('GET /api/v1/auth/invites', () => {
  it("lists only the caller's pending invites, newest first, without tokens", async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00.000Z'));
    const { app } = await buildTestApp({}, { clock, inviteTtlSeconds: 100 });
    const owner = await signupOwner(app);
    const stranger = await signupOwner(app, 'Other');

    await createInvite(app, owner, { email: uniqueEmail('expired') });         // t=0, expires t=100
    clock.advance({ seconds: 60 });
    const older = await createInvite(app, owner, { email: uniqueEmail('older'), role: 'admin' }); // t=60
    clock.advance({ seconds: 1 });
    const newer = await createInvite(app, owner, { email: uniqueEmail('newer') });       // t=61
    const accepted = await createInvite(app, owner, { email: uniqueEmail('accepted') }); // t=61
    await request(app).post(`${AUTH}/signup`).send({ email: accepted.email, password: PASSWORD, invite_token: accepted.token }).expect(201);
    await createInvite(app, stranger, { email: uniqueEmail('stranger') });
    clock.advance({ seconds: 50 }); // t=111: the first has expired

    const invites = await listInvites(app, owner);
    expect(invites).toEqual([
      { id: expect.any(String), email: newer.email.toLowerCase(), role: 'member', expires_at: '2030-01-01T00:02:41.000Z', created_at: '2030-01-01T00:01:01.000Z' },
      { id: expect.any(String), email: older.email.toLowerCase(), role: 'admin', expires_at: '2030-01-01T00:02:40.000Z', created_at: '2030-01-01T00:01:00.000Z' },
    ]);
    expect(JSON.stringify(invites)).not.toContain(newer.token);
  });

  it('answers an empty list for a tenant without invites', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const res = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
    expect(res.body).toEqual({ invites: [] });
  });
});

describe('DELETE /api/v1/auth/invites/:id', () => {
  it('deletes a pending invite: 200 {deleted: true}, gone from the list, its token no longer usable', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner);
    const id = await idOf(app, owner, invite.email);

    const res = await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect(await listInvites(app, owner)).toEqual([]);
    const signup = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
    expectError(signup, 400, 'Invalid invite token');
    expectError(await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner)), 404, 'Invite not found');
  });

  it('deletes an expired invite too (expiry is not checked)', async () => {
    const clock = new TestClock();
    const { app, storage } = await buildTestApp({}, { clock, inviteTtlSeconds: 100 });
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner);
    const id = await idOf(app, owner, invite.email);
    clock.advance({ seconds: 101 });
    expect(await listInvites(app, owner)).toEqual([]);

    await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner)).expect(200, { deleted: true });
    expect(await storage.repos.invites.findByToken(invite.token)).toBeNull();
  });

  it.each([
    ['an unknown id', '6f1c2a8e-0000-4000-8000-000000000000'],
    ['an id that is not a UUID', 'not-a-uuid'],
    ['a SQL-looking id', "1' OR '1'='1"],
  ])('answers 404 Invite not found for %s', async (_label, id) => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    await createInvite(app, owner);
    const res = await request(app).delete(`${AUTH}/invites/${encodeURIComponent(id)}`).set(bearer(owner));
    expectError(res, 404, 'Invite not found');
    expect(await listInvites(app, owner)).toHaveLength(1);
  });

  it("answers 404 for another tenant's invite and leaves it in place", async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const stranger = await signupOwner(app, 'Other');
    const theirs = await createInvite(app, stranger);
    const id = await idOf(app, stranger, theirs.email);

    expectError(await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner)), 404, 'Invite not found');
    expect((await listInvites(app, stranger)).map((i) => i.id)).toEqual([id]);
  });

  it('answers 404 for an accepted invite and keeps the record', async () => {
    const { app, storage } = await buildTestApp();
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner);
    const id = await idOf(app, owner, invite.email);
    await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token }).expect(201);

    expectError(await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(owner)), 404, 'Invite not found');
    expect(await storage.repos.invites.findByToken(invite.token)).toMatchObject({ id, acceptedAt: expect.any(Date) });
  });
});

describe('an invitation for an address that already has an account elsewhere', () => {
  it('is created (201) but can never be accepted: the signup is a 409', async () => {
    const { app } = await buildTestApp();
    const elsewhere = await signupOwner(app, 'Elsewhere');
    const inviter = await signupOwner(app, 'Inviter');
    const invite = await createInvite(app, inviter, { email: elsewhere.email, role: 'admin' });
    expect(invite.token).toMatch(/^[0-9a-f]{64}$/);
    expect((await listInvites(app, inviter)).map((pending) => pending.email)).toEqual([elsewhere.email]);

    const join = await request(app).post(`${AUTH}/signup`).send({ email: elsewhere.email, password: PASSWORD, invite_token: invite.token });
    expectError(join, 409, 'Email already registered');
    // The refusal consumed nothing: the invite is still pending, and still refused.
    expect((await listInvites(app, inviter)).map((pending) => pending.email)).toEqual([elsewhere.email]);
    const again = await request(app).post(`${AUTH}/signup`).send({ email: elsewhere.email, password: 'another fine password', invite_token: invite.token });
    expectError(again, 409, 'Email already registered');
  });
});
