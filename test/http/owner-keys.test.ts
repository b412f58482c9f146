import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';

async function keyOf(app: Parameters<typeof request>[0], account: Account): Promise<{ id: string; api_key: string }> {
  const res = await request(app).post(`${AUTH}/api-keys`).set(bearer(account));
  expect(res.status).toBe(201);
  return res.body as { id: string; api_key: string };
}

describe("revoking an owner's API key", () => {
  it('is refused to an admin (403, recorded), and allowed to an owner; an admin still revokes an admin\'s key', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const admin = await joinWithRole(app, owner, 'admin');
    const ownersKey = await keyOf(app, owner);
    const adminsKey = await keyOf(app, admin);

    const refused = await request(app).delete(`${AUTH}/api-keys/${ownersKey.id}`).set(bearer(admin));
    expectError(refused, 403, 'Only an owner can revoke an API key created by an owner');
    // The admin's own key cannot do it either: it acts as the admin.
    expectError(await request(app).delete(`${AUTH}/api-keys/${ownersKey.id}`).set('x-api-key', adminsKey.api_key), 403,
      'Only an owner can revoke an API key created by an owner');
    await request(app).get(`${AUTH}/me`).set('x-api-key', ownersKey.api_key).expect(200);

    const denied = await request(app).get(`${AUTH}/audit-events?action=access.denied`).set(bearer(owner)).expect(200);
    expect(denied.body.events[0]).toMatchObject({
      actor_user_id: admin.userId, target_id: ownersKey.id, details: { reason: 'role', rule: 'owner_key_requires_owner' },
    });

    await request(app).delete(`${AUTH}/api-keys/${adminsKey.id}`).set(bearer(admin)).expect(200);
    await request(app).delete(`${AUTH}/api-keys/${ownersKey.id}`).set(bearer(owner)).expect(200);
    expectError(await request(app).get(`${AUTH}/me`).set('x-api-key', ownersKey.api_key), 401, 'Invalid API key');
  });

  it("follows the creator's current role: once the creator is no longer an owner, an admin may revoke the key", async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const admin = await joinWithRole(app, owner, 'admin');
    const promoted = await request(app).patch(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).send({ role: 'owner' });
    expect(promoted.status).toBe(200);
    const ownersKey = await keyOf(app, owner);
    await request(app).patch(`${AUTH}/members/${owner.userId}`).set('x-api-key', ownersKey.api_key).send({ role: 'admin' }).expect(200);

    // The promotion ended the new owner's token: logged in again, they invite a second admin.
    const login = await request(app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }).expect(200);
    const secondAdmin = await joinWithRole(app, { ...admin, role: 'owner', token: login.body.token as string }, 'admin');
    await request(app).delete(`${AUTH}/api-keys/${ownersKey.id}`).set(bearer(secondAdmin)).expect(200);
  });
});
