import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { request } from '../support/contract-request';
import { linkToken } from '../support/mail-links';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { entraActive, expectScimError, oktaActive, oktaUser, SCIM, scimHeaders, scimTokenOf, setActive } from '../support/scim-fixtures';

/** Deactivation over SCIM suspends the member; reactivation restores them, on memory storage. */
describe('SCIM suspension', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.assembly.close());

  async function memberWithKey() {
    const owner = await signupOwner(t.app);
    const token = await scimTokenOf(t.app, owner);
    const admin = await joinWithRole(t.app, owner, 'admin');
    const key = await createApiKey(t.app, admin);
    await request(t.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200); // held in the instance's memory
    return { owner, token, admin, key };
  }

  it('V7.4.2: active false (as Okta sends it) ends the member\'s sessions and refuses their token, key and password, keeping them listed', async () => {
    const { owner, token, admin, key } = await memberWithKey();
    const res = await setActive(t.app, token, admin.userId, oktaActive(false));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: admin.userId, userName: admin.email, active: false });

    expectError(await request(t.app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
    expectError(await request(t.app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
    expectError(await request(t.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
    const members = (await request(t.app).get(`${AUTH}/members`).set(bearer(owner))).body.members as Array<Record<string, unknown>>;
    expect(members.find((m) => m['user_id'] === admin.userId)).toEqual({
      user_id: admin.userId, email: admin.email, role: 'admin', created_at: expect.any(String), suspended_at: expect.any(String),
    });
    expect((await request(t.app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0]).toMatchObject({ revoked: false });
    // The address stays the member's: nobody else may take it meanwhile.
    expectError(await request(t.app).post(`${AUTH}/signup`).send({ email: admin.email, password: PASSWORD, tenant_name: 'Elsewhere' }), 409, 'Email already registered');
  });

  it('active true (as Entra ID sends it) restores: the key works again, a new sign-in works, the token from before stays refused', async () => {
    const { token, admin, key } = await memberWithKey();
    expect((await setActive(t.app, token, admin.userId, entraActive(false))).status).toBe(200);
    const restored = await setActive(t.app, token, admin.userId, entraActive(true));
    expect(restored.body.active).toBe(true);

    expect((await request(t.app).get(`${AUTH}/me`).set('x-api-key', key)).status).toBe(200);
    expectError(await request(t.app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
    const login = await request(t.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect((await request(t.app).get(`${AUTH}/me`).set(bearer({ token: login.body.token as string }))).status).toBe(200);
  });

  it('a reset link sent before the suspension opens nothing while it lasts; none is sent to a suspended member', async () => {
    const { token, admin } = await memberWithKey();
    const mailbox = t.assembly.mailer as DevelopmentMailbox;
    const deliver = async () => {
      await t.useCases.forgotPassword.settled();
      await t.assembly.mailWorker!.deliverNow();
    };
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email: admin.email })).status).toBe(202);
    await deliver();
    const link = linkToken(mailbox.latestTo(admin.email)!.text, 'reset-password');
    expect((await setActive(t.app, token, admin.userId, oktaActive(false))).status).toBe(200);

    expectError(await request(t.app).post(`${AUTH}/password/reset`).send({ token: link, password: 'a brand new passphrase' }), 400, 'Invalid or expired reset token');
    const sent = mailbox.messages().length;
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email: admin.email })).status).toBe(202);
    await deliver();
    expect(mailbox.messages().length).toBe(sent);
    expectError(await request(t.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
  });

  it('PUT replaces active too; its userName must be the member\'s address; a PATCH of other attributes changes nothing', async () => {
    const { token, admin } = await memberWithKey();
    const put = await request(t.app).put(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token)).send(oktaUser(admin.email, false));
    expect(put.body).toMatchObject({ id: admin.userId, active: false });
    expectScimError(await request(t.app).put(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token)).send(oktaUser('renamed@example.com', true)), 400,
      'userName cannot be changed: it is the member\'s address', 'mutability');
    const rename = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'displayName', value: 'Ada' }] };
    expect((await setActive(t.app, token, admin.userId, rename)).body.active).toBe(false);
    expectScimError(await setActive(t.app, token, admin.userId, { Operations: [{ op: 'move', path: 'active', value: true }] }), 400,
      'op must be add, replace or remove', 'invalidValue');
    expectScimError(await setActive(t.app, token, admin.userId, { Operations: [] }), 400, 'Operations must be a non-empty list', 'invalidValue');
  });

  it('a suspension and a restore are recorded once each as SCIM\'s doing, the sessions it ended with the reason', async () => {
    const { owner, token, admin } = await memberWithKey();
    expect((await setActive(t.app, token, admin.userId, oktaActive(false))).status).toBe(200);
    expect((await setActive(t.app, token, admin.userId, oktaActive(false))).status).toBe(200); // already suspended: nothing more happens
    expect((await setActive(t.app, token, admin.userId, oktaActive(true))).status).toBe(200);
    const events = (await request(t.app).get(`${AUTH}/audit-events`).set(bearer(owner))).body.events as Array<Record<string, unknown>>;
    const scim = events.filter((e) => (e['action'] as string).startsWith('scim.user_') || (e['action'] === 'session.ended' && e['actor_auth'] === 'scim'));
    expect(scim.map((e) => [e['action'], e['actor_auth'], e['actor_user_id'], e['target_id']]).reverse()).toEqual([
      ['session.ended', 'scim', null, admin.userId],
      ['scim.user_suspended', 'scim', null, admin.userId],
      ['scim.user_restored', 'scim', null, admin.userId],
    ]);
    expect(scim.find((e) => e['action'] === 'session.ended')?.['details']).toMatchObject({ reason: 'suspension', user_id: admin.userId });
  });
});
