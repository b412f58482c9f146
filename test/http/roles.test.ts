import { request } from '../support/contract-request';
import { createTestPortcullis } from '../../src/testing';
import { AUTH, expectError } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

const ADMIN_ROUTES = [
  ['post', '/api-keys'],
  ['post', '/invite'],
  ['get', '/invites'],
  ['delete', '/invites/:id'],
  ['post', '/invites/:id/resend'],
] as const;

describe('Role checks', () => {
  describe.each(['member', 'viewer'] as const)('a %s', (role) => {
    it.each(ADMIN_ROUTES)('is refused %s %s with 403, by token or by key', async (method, path) => {
      const pc = await createTestPortcullis();
      const acme = await pc.tenant();
      const invite = await pc.invite(acme);
      const user = await pc.member(acme, role);
      const key = await pc.apiKey(user);
      const target = `${AUTH}${path.replace(':id', 'does-not-matter')}`;
      for (const headers of [user.headers, key.headers]) {
        const res = await request(pc.app)[method](target).set(headers).send(method === 'post' ? { email: uniqueEmail() } : undefined);
        expectError(res, 403, 'Requires admin role or higher');
      }
      // Nothing happened: the owner still sees exactly the one invite it made.
      const list = await request(pc.app).get(`${AUTH}/invites`).set(acme.owner.headers);
      expect(list.body.invites.map((i: { email: string }) => i.email)).toEqual([invite.email]);
    });

    it('gets 403, not a body error, for a malformed body on POST /invite', async () => {
      const pc = await createTestPortcullis();
      const user = await pc.member(await pc.tenant(), role);
      const res = await request(pc.app).post(`${AUTH}/invite`).set(user.headers).set('Content-Type', 'application/json').send('{oops');
      expectError(res, 403, 'Requires admin role or higher');
      const unknownField = await request(pc.app).post(`${AUTH}/invite`).set(user.headers).send({ nope: 1 });
      expectError(unknownField, 403, 'Requires admin role or higher');
    });
  });

  it('lets an admin (not only the owner) use every admin route', async () => {
    const pc = await createTestPortcullis();
    const admin = await pc.member(await pc.tenant(), 'admin');
    await request(pc.app).post(`${AUTH}/api-keys`).set(admin.headers).expect(201);
    const invite = await request(pc.app).post(`${AUTH}/invite`).set(admin.headers).send({ email: uniqueEmail(), role: 'admin' }).expect(201);
    const list = await request(pc.app).get(`${AUTH}/invites`).set(admin.headers).expect(200);
    expect(list.body.invites).toHaveLength(1);
    await request(pc.app).delete(`${AUTH}/invites/${list.body.invites[0].id}`).set(admin.headers).expect(200);
    expectError(await request(pc.app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: 'long enough pass', invite_token: invite.body.invite_token }), 400, 'Invalid invite token');
  });

  it('applies the current role of the user behind an API key', async () => {
    const pc = await createTestPortcullis();
    const acme = await pc.tenant();
    const admin = await pc.member(acme, 'admin');
    const key = await pc.apiKey(admin);
    await request(pc.app).get(`${AUTH}/invites`).set(key.headers).expect(200);
    await request(pc.app).patch(`${AUTH}/members/${admin.userId}`).set(acme.owner.headers).send({ role: 'viewer' }).expect(200);
    expectError(await request(pc.app).get(`${AUTH}/invites`).set(key.headers), 403, 'Requires admin role or higher');
  });
});
