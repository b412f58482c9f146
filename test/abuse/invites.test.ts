import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, createInvite, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];

async function listInvites(app: App, admin: Account): Promise<Array<{ id: string; email: string; role: string }>> {
  const res = await request(app).get(`${AUTH}/invites`).set(bearer(admin));
  expect(res.status).toBe(200);
  return res.body.invites;
}

/** Tenant isolation and role rules around invites: one test per attack. */
describe('abuse: invites', () => {
  let app: App;
  let victim: Account;
  let attacker: Account;
  let victimInvite: { email: string; token: string; id: string };

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    victim = await signupOwner(app, 'Victim Co');
    attacker = await signupOwner(app, 'Attacker Co');
    const invite = await createInvite(app, victim, { role: 'admin' });
    const id = (await listInvites(app, victim)).find((i) => i.email === invite.email.toLowerCase())!.id;
    victimInvite = { ...invite, id };
  });

  it('cross-tenant invite list: another tenant\'s admin sees none of our invites', async () => {
    await createInvite(app, attacker);
    const seen = await listInvites(app, attacker);
    expect(seen).toHaveLength(1);
    expect(seen.map((i) => i.id)).not.toContain(victimInvite.id);
    expect(JSON.stringify(seen)).not.toContain(victimInvite.email.toLowerCase());
  });

  it('cross-tenant invite delete: another tenant\'s admin gets 404 Invite not found, and the record stays (listed, and still usable)', async () => {
    const attackerKey = await createApiKey(app, attacker);
    const attempts = [
      request(app).delete(`${AUTH}/invites/${victimInvite.id}`).set(bearer(attacker)),
      request(app).delete(`${AUTH}/invites/${victimInvite.id}`).set('x-api-key', attackerKey),
      request(app).delete(`${AUTH}/invites/${victimInvite.id.toUpperCase()}`).set(bearer(attacker)),
      request(app).delete(`${AUTH}/invites/${encodeURIComponent(victimInvite.id).replace(/-/g, '%2D')}`).set(bearer(attacker)),
    ];
    for (const attempt of attempts) expectError(await attempt, 404, 'Invite not found');
    expect((await listInvites(app, victim)).map((i) => i.id)).toContain(victimInvite.id);
    // Same answer as for an id that exists nowhere: the attacker cannot even tell it exists.
    expectError(await request(app).delete(`${AUTH}/invites/00000000-0000-4000-8000-000000000000`).set(bearer(attacker)), 404, 'Invite not found');
  });

  it('owner invite refused: role owner (in any spelling) is a 400 and no invite is created', async () => {
    const before = await listInvites(app, victim);
    for (const role of ['owner', 'OWNER', 'Owner', ' owner']) {
      const res = await request(app).post(`${AUTH}/invite`).set(bearer(victim)).send({ email: uniqueEmail('would-be-owner'), role });
      expectError(res, 400, 'role must be one of the following values: admin, member, viewer');
    }
    expect(await listInvites(app, victim)).toEqual(before);
  });

  it('invite by a member or viewer (privilege escalation): 403 Requires admin role or higher, nothing created', async () => {
    const before = await listInvites(app, victim);
    for (const role of ['member', 'viewer'] as const) {
      const insider = await joinWithRole(app, victim, role);
      for (const wanted of ['admin', 'member']) {
        const res = await request(app).post(`${AUTH}/invite`).set(bearer(insider)).send({ email: uniqueEmail('crony'), role: wanted });
        expectError(res, 403, 'Requires admin role or higher');
      }
    }
    expect(await listInvites(app, victim)).toEqual(before);
  });

  it('deleting an accepted invite (to hide who joined): 404 Invite not found, the acceptance stays', async () => {
    const invite = await createInvite(app, victim);
    const id = (await listInvites(app, victim)).find((i) => i.email === invite.email.toLowerCase())!.id;
    await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token }).expect(201);
    expectError(await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(victim)), 404, 'Invite not found');
    // Still accepted: the token cannot be used again.
    const again = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, invite_token: invite.token });
    expectError(again, 400, 'Invite already accepted');
  });

  it('the cross-tenant invite, after all the attempts above, still brings its invitee into the victim tenant', async () => {
    const res = await request(app).post(`${AUTH}/signup`).send({ email: victimInvite.email, password: PASSWORD, invite_token: victimInvite.token });
    expect(res.status).toBe(201);
    expect(res.body.tenant_id).toBe(victim.tenantId);
  });
});
