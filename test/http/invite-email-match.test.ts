import { request } from '../support/contract-request';
import { loadConfig } from '../../src/bootstrap/config';
import { buildTestApp } from '../support/http-app';
import { AUTH, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

describe('INVITE_REQUIRE_EMAIL_MATCH', () => {
  it('is off by default: as the contract says, an invite token signs up any address', async () => {
    expect(loadConfig({}).inviteRequireEmailMatch).toBe(false);
    expect(loadConfig({ INVITE_REQUIRE_EMAIL_MATCH: 'true' }).inviteRequireEmailMatch).toBe(true);
    const { app } = await buildTestApp();
    const invite = await createInvite(app, await signupOwner(app));
    const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('someone-else'), password: PASSWORD, invite_token: invite.token });
    expect(res.status).toBe(201);
  });

  it('when on, refuses the token for another address with 400 Invalid invite token, and the invitee still joins', async () => {
    const { app } = await buildTestApp({}, { inviteRequireEmailMatch: true });
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner);

    const other = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('someone-else'), password: PASSWORD, invite_token: invite.token });
    expectError(other, 400, 'Invalid invite token');

    // Any spelling of the invited address is that address.
    const joined = await request(app).post(`${AUTH}/signup`)
      .send({ email: invite.email.toUpperCase(), password: PASSWORD, invite_token: invite.token });
    expect(joined.status).toBe(201);
    expect(joined.body.tenant_id).toBe(owner.tenantId);
  });
});
