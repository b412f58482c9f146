import type { RequestListener } from 'node:http';
import jwt from 'jsonwebtoken';
import supertest from 'supertest';
import { request } from './contract-request';
import { type Account, AUTH, bearer, joinWithRole, PASSWORD } from './http-fixtures';
import type { Downstream } from './verifier-fixtures';

type Bearer = { readonly Authorization: string };

const sidOf = (headers: Bearer): string => (jwt.decode(headers.Authorization.slice('Bearer '.length)) as { sid: string }).sid;

/**
 * A member signed in on three devices, each token admitted (so remembered) by the downstream. Ends
 * one session by logout, then the rest as an admin, through `app` (a Portcullis instance, maybe not
 * the one the downstream's feed comes from); after each, once the session's end has arrived on the
 * feed, the downstream refuses that session's tokens and still admits the member's other session
 * from memory (no introspection when `introspections` counts them), and the owner's.
 */
export async function expectSessionEndsFollowed(app: RequestListener, owner: Account, service: Downstream, introspections?: () => number): Promise<void> {
  const whoami = (headers: Bearer) => supertest(service.app).get('/whoami').set(headers);
  const refused = async (headers: Bearer) => {
    const res = await whoami(headers);
    return { status: res.status, body: res.body as unknown };
  };
  const REFUSED = { status: 401, body: { error: 'Invalid or expired token' } };
  const member = await joinWithRole(app, owner, 'member');
  const login = async (): Promise<Bearer> => ({
    Authorization: `Bearer ${(await request(app).post(`${AUTH}/login`).send({ email: member.email, password: PASSWORD }).expect(200)).body.token as string}`,
  });
  const [laptop, phone, tablet] = [bearer(member) as Bearer, await login(), await login()];
  for (const headers of [laptop, phone, tablet, bearer(owner) as Bearer]) expect((await whoami(headers)).status).toBe(200);

  const asked = introspections?.();
  let heard = service.nextChange((change) => change.kind === 'session' && change.sessionId === sidOf(laptop));
  await request(app).post(`${AUTH}/logout`).set(laptop).expect(204);
  await heard;
  expect(await refused(laptop)).toEqual(REFUSED);
  expect((await whoami(phone)).status).toBe(200);
  // Only the ended session was asked about again: the phone's answer was still remembered.
  if (asked !== undefined) expect(introspections!()).toBe(asked + 1);

  heard = service.nextChange((change) => change.kind === 'session' && change.sessionId === sidOf(tablet));
  const heardPhone = service.nextChange((change) => change.kind === 'session' && change.sessionId === sidOf(phone));
  await request(app).delete(`${AUTH}/members/${member.userId}/sessions`).set(bearer(owner)).expect(200);
  await Promise.all([heard, heardPhone]);
  for (const headers of [phone, tablet]) expect(await refused(headers)).toEqual(REFUSED);
  expect((await whoami(bearer(owner) as Bearer)).status).toBe(200);
}
