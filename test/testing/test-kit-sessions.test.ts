import jwt from 'jsonwebtoken';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { createTestPortcullis, startTestPortcullis, type TestMember } from '../../src/testing';
import { eachTestKit, withDownstream } from '../support/kit-lifecycle';

const AUTH = '/api/v1/auth';

describe('the test kit\'s sessions: pc.logout and pc.endSessions', () => {
  const kit = eachTestKit(() => createTestPortcullis());

  const me = (token: string) => request(kit().app).get(`${AUTH}/me`).set('authorization', `Bearer ${token}`);
  const refused = async (token: string) => {
    const res = await me(token);
    return { status: res.status, body: res.body as unknown };
  };
  const REFUSED = { status: 401, body: { error: 'Invalid or expired token' } };

  it('gives every member a token that names their session (sid), renewed with each login', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.member(acme);
    for (const m of [acme.owner, member]) expect((jwt.decode(m.token) as { sid?: string }).sid).toBe(m.sessionId);
    const first = member.sessionId;
    await pc.login(member);
    expect(member.sessionId).not.toBe(first);
    expect((jwt.decode(member.token) as { sid?: string }).sid).toBe(member.sessionId);
  });

  // V7.4.1: logout ends the session; its token is refused from the next request.
  it('logout ends the member\'s current session only: that token is refused, another session of theirs and their keys stand (V7.4.1)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.member(acme, 'admin');
    const key = await pc.apiKey(member);
    const laptop = member.token;
    await pc.login(member);
    const phone = member.token;
    await pc.login(member);

    await pc.logout(member);
    expect(await refused(member.token)).toEqual(REFUSED);
    expect((await me(laptop)).status).toBe(200);
    expect((await me(phone)).status).toBe(200);
    expect((await request(pc.app).get(`${AUTH}/me`).set(key.headers)).status).toBe(200);

    await pc.login(member);
    expect((await me(member.token)).status).toBe(200);
  });

  // V7.4.5: an administrator ends every session of a member.
  it('endSessions ends every session of the member, as an admin would; their keys stand, other members\' sessions too (V7.4.5)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.member(acme, 'admin');
    const other = await pc.member(acme);
    const key = await pc.apiKey(member);
    const tokens = [member.token];
    for (let i = 0; i < 2; i += 1) tokens.push((await pc.login(member)).token);

    expect(await pc.endSessions(member)).toBe(3);
    for (const token of tokens) expect(await refused(token)).toEqual(REFUSED);
    expect((await request(pc.app).get(`${AUTH}/me`).set(key.headers)).status).toBe(200);
    expect((await me(other.token)).status).toBe(200);
  });

  it('goes on acting for a tenant whose owner logged out or had every session ended', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const owner: TestMember = acme.owner;
    await pc.logout(owner);
    expect(await refused(owner.token)).toEqual(REFUSED);
    const member = await pc.member(acme);
    expect(await pc.endSessions(owner)).toBeGreaterThanOrEqual(1);
    await pc.removeMember(member);
    expect(await refused(member.token)).toEqual(REFUSED);
  });
});

describe('the test kit\'s sessions on its server: a downstream follows a logout', () => {
  const kit = eachTestKit(() => startTestPortcullis({ changeHeartbeatMs: 100 }));

  it('refusedAfter(pc.logout) and refusedAfter(pc.endSessions): the downstream refuses the ended sessions\' tokens, and admits another session\'s (V7.4.1)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.member(acme);
    await withDownstream(pc, async (service) => {
      const whoami = (token: string) => () => supertest(service.app).get('/whoami').set('authorization', `Bearer ${token}`);
      const laptop = member.token;
      const phone = (await pc.login(member)).token;
      expect((await whoami(laptop)()).status).toBe(200);

      const refused = await pc.refusedAfter(() => pc.logout(member), whoami(phone));
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'Invalid or expired token' } });
      expect((await whoami(laptop)()).status).toBe(200);

      await pc.refusedAfter(() => pc.endSessions(member), whoami(laptop));
      expect((await whoami(acme.owner.token)()).status).toBe(200);
    });
  });
});
