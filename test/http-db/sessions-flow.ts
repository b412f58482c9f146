import type { RequestListener } from 'node:http';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';

export interface SessionsTarget {
  readonly app: RequestListener;
  close(): Promise<void>;
}

async function login(app: RequestListener, account: Account, userAgent: string): Promise<Account> {
  const res = await request(app).post(`${AUTH}/login`).set('User-Agent', userAgent).send({ email: account.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { ...account, token: res.body.token as string };
}

/**
 * The main flow of sessions over HTTP, the same on every backend: sign-ins start sessions the member
 * sees, and ending one (logout, by id, all but the current, by an admin) refuses its tokens from the
 * very next request while the others go on.
 */
export function describeSessionsFlow(name: string, open: () => Promise<SessionsTarget>): void {
  describe(`${name}: sessions over HTTP`, () => {
    let target: SessionsTarget;
    beforeAll(async () => {
      target = await open();
    }, 60_000);
    afterAll(() => target?.close());

    it('lists the sign-ins as sessions, newest first, and ends them one way after another (V7.4.1, V7.4.3, V7.5.2)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const laptop = await login(app, owner, 'laptop/1.0');
      const phone = await login(app, owner, 'phone/2.0');
      const me = (account: Account) => request(app).get(`${AUTH}/me`).set(bearer(account));

      const listed = await request(app).get(`${AUTH}/sessions`).set(bearer(phone));
      expect(listed.status).toBe(200);
      expect(listed.body.sessions).toHaveLength(3);
      expect(listed.body.sessions.map((s: { user_agent: string | null; current: boolean }) => [s.user_agent, s.current]))
        .toEqual([['phone/2.0', true], ['laptop/1.0', false], [null, false]]);
      const [, laptopSession, signupSession] = listed.body.sessions as { id: string }[];

      // One by id: that session's token is refused at once, the others go on.
      const ended = await request(app).delete(`${AUTH}/sessions/${laptopSession!.id}`).set(bearer(phone));
      expect({ status: ended.status, body: ended.body as unknown }).toEqual({ status: 200, body: { ended: true } });
      expectError(await me(laptop), 401, 'Invalid or expired token');
      expect((await me(phone)).status).toBe(200);
      expectError(await request(app).delete(`${AUTH}/sessions/${laptopSession!.id}`).set(bearer(phone)), 404, 'Session not found');

      // All but the current one.
      const tablet = await login(app, owner, 'tablet/3.0');
      const others = await request(app).delete(`${AUTH}/sessions`).set(bearer(phone));
      expect({ status: others.status, body: others.body as unknown }).toEqual({ status: 200, body: { ended: 2 } });
      expectError(await me(tablet), 401, 'Invalid or expired token');
      expectError(await me(owner), 401, 'Invalid or expired token');
      expect(((await request(app).get(`${AUTH}/sessions`).set(bearer(phone))).body.sessions as { id: string }[]).map((s) => s.id))
        .not.toContain(signupSession!.id);

      // Logout ends the current one.
      const out = await request(app).post(`${AUTH}/logout`).set(bearer(phone));
      expect(out.status).toBe(204);
      expectError(await me(phone), 401, 'Invalid or expired token');
    });

    it("an admin ends every session of a member, who must sign in again (V7.4.5)", async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'member');
      const again = await login(app, member, 'second/1.0');

      const res = await request(app).delete(`${AUTH}/members/${member.userId}/sessions`).set(bearer(owner));
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: { ended: 2 } });
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(member)), 401, 'Invalid or expired token');
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(again)), 401, 'Invalid or expired token');
      expect((await request(app).get(`${AUTH}/me`).set(bearer(await login(app, member, 'third/1.0')))).status).toBe(200);
    });
  });
}
