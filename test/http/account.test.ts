import { createTestPortcullis, type TestPortcullis } from '../../src/testing';
import { request } from '../support/contract-request';
import { AUTH, expectError } from '../support/http-fixtures';

describe('GET /api/v1/auth/account', () => {
  let pc: TestPortcullis;
  beforeEach(async () => {
    pc = await createTestPortcullis();
  });
  afterEach(async () => {
    await pc.close();
  });

  it("answers the caller's e-mail, role and organisation name, by bearer token and by API key", async () => {
    const acme = await pc.tenant({ name: 'Analytical Engines' });
    const viewer = await pc.member(acme, 'viewer');
    const expected = { user_id: viewer.userId, email: viewer.email, role: 'viewer', tenant_id: acme.tenantId, tenant_name: 'Analytical Engines', email_verified: false };

    const byToken = await request(pc.app).get(`${AUTH}/account`).set(viewer.headers);
    expect({ status: byToken.status, body: byToken.body as unknown }).toEqual({ status: 200, body: expected });

    const key = await pc.apiKey(acme.owner);
    const byKey = await request(pc.app).get(`${AUTH}/account`).set(key.headers);
    expect(byKey.body).toEqual({
      user_id: acme.owner.userId, email: acme.owner.email, role: 'owner', tenant_id: acme.tenantId, tenant_name: 'Analytical Engines', email_verified: false,
    });
  });

  it('shows each caller their own organisation, never another tenant\'s', async () => {
    const one = await pc.tenant({ name: 'First' });
    const two = await pc.tenant({ name: 'Second' });
    expect((await request(pc.app).get(`${AUTH}/account`).set(one.owner.headers)).body.tenant_name).toBe('First');
    expect((await request(pc.app).get(`${AUTH}/account`).set(two.owner.headers)).body.tenant_name).toBe('Second');
  });

  it('leaves GET /me with exactly the three fields of the contract', async () => {
    const acme = await pc.tenant();
    const me = await request(pc.app).get(`${AUTH}/me`).set(acme.owner.headers);
    expect(me.body).toEqual({ tenant_id: acme.tenantId, user_id: acme.owner.userId, role: 'owner' });
  });

  it('refuses a removed member and a token ended by a role change with the same 401 as /me', async () => {
    const acme = await pc.tenant();
    const leaving = await pc.member(acme, 'member');
    const key = await pc.apiKey(acme.owner);
    const admin = await pc.member(acme, 'admin');
    const staleAdmin = admin.headers;
    await pc.changeRole(admin, 'viewer');
    await pc.removeMember(leaving);

    for (const headers of [leaving.headers, staleAdmin]) {
      const me = await request(pc.app).get(`${AUTH}/me`).set(headers);
      const account = await request(pc.app).get(`${AUTH}/account`).set(headers);
      expectError(me, 401, 'Invalid or expired token');
      expect({ status: account.status, body: account.body as unknown }).toEqual({ status: me.status, body: me.body as unknown });
    }
    await pc.revokeApiKey(key);
    expectError(await request(pc.app).get(`${AUTH}/account`).set(key.headers), 401, 'Invalid API key');
    expectError(await request(pc.app).get(`${AUTH}/account`), 401, 'Missing authentication');
  });
});

describe("the README's last steps: a password change, then the audit trail", () => {
  it('reads the trail with the token the password change answered; the one it ended is refused', async () => {
    const pc = await createTestPortcullis();
    try {
      const acme = await pc.tenant();
      const changed = await request(pc.app).post(`${AUTH}/password`).set(acme.owner.headers)
        .send({ current_password: acme.owner.password, new_password: 'a new long passphrase' });
      expect(changed.status).toBe(200);
      expectError(await request(pc.app).get(`${AUTH}/audit-events?limit=20`).set(acme.owner.headers), 401, 'Invalid or expired token');
      const trail = await request(pc.app).get(`${AUTH}/audit-events?limit=20`).set('authorization', `Bearer ${changed.body.token as string}`);
      expect(trail.status).toBe(200);
      expect((trail.body.events as { action: string }[])[0]?.action).toBe('password.changed');
    } finally {
      await pc.close();
    }
  });
});
