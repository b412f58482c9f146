import request from 'supertest';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, createInvite, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

const ADMIN_ROUTES = [
  ['post', '/api-keys'],
  ['post', '/invite'],
  ['get', '/invites'],
  ['delete', '/invites/:id'],
] as const;

describe('Role checks (part 5, roles)', () => {
  describe.each(['member', 'viewer'] as const)('a %s', (role) => {
    it.each(ADMIN_ROUTES)('is refused %s %s with 403', async (method, path) => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      const user = await joinWithRole(app, owner, role);
      const target = `${AUTH}${path.replace(':id', 'does-not-matter')}`;
      const res = await request(app)[method](target).set(bearer(user)).send(method === 'post' ? { email: uniqueEmail() } : undefined);
      expectError(res, 403, 'Requires admin role or higher');
      // Nothing happened: the owner still sees exactly the one invite it made.
      const list = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
      expect(list.body.invites.map((i: { email: string }) => i.email)).toContain(invite.email.toLowerCase());
    });

    it('gets 403, not a body error, for a malformed body on POST /invite', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const user = await joinWithRole(app, owner, role);
      const res = await request(app).post(`${AUTH}/invite`).set(bearer(user)).set('Content-Type', 'application/json').send('{oops');
      expectError(res, 403, 'Requires admin role or higher');
      const unknownField = await request(app).post(`${AUTH}/invite`).set(bearer(user)).send({ nope: 1 });
      expectError(unknownField, 403, 'Requires admin role or higher');
    });
  });

  it('lets an admin (not only the owner) use every admin route', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const admin = await joinWithRole(app, owner, 'admin');
    await createApiKey(app, admin);
    const invite = await createInvite(app, admin, { role: 'admin' });
    const list = await request(app).get(`${AUTH}/invites`).set(bearer(admin));
    expect(list.status).toBe(200);
    const id = (list.body.invites as Array<{ id: string; email: string }>).find((i) => i.email === invite.email.toLowerCase())!.id;
    await request(app).delete(`${AUTH}/invites/${id}`).set(bearer(admin)).expect(200);
  });

  it('applies the role of the user behind an API key', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const key = await createApiKey(app, owner);
    await request(app).get(`${AUTH}/invites`).set('x-api-key', key).expect(200);
  });
});
