import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

describe('mass assignment: fields the contract does not take are refused, and change nothing', () => {
  it.each([
    ['role', 'owner'],
    ['tenant_id', '00000000-0000-4000-8000-000000000000'],
    ['owner', true],
  ])('signup through an invite with %s in the body is a 400 naming it, and creates no user', async (field, value) => {
    const { app, storage } = await buildTestApp();
    const admin = await signupOwner(app);
    const invite = await createInvite(app, admin, { role: 'viewer' });
    const email = uniqueEmail('escalate');
    const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.token, [field]: value });
    expectError(res, 400, `property ${field} should not exist`);
    expect(await storage.repos.users.findByEmail(email)).toBeNull();
    expect((await storage.repos.invites.findByToken(invite.token))?.acceptedAt).toBeNull();
  });

  it('login with a role in the body is a 400, not a token with that role', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    expectError(await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD, role: 'owner' }), 400,
      'property role should not exist');
  });

  it('an invite cannot name another tenant', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const res = await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: uniqueEmail(), tenant_id: owner.tenantId });
    expectError(res, 400, 'property tenant_id should not exist');
  });
});
