import supertest from 'supertest';
import { request } from '../support/contract-request';
import { createTestPortcullis, startTestPortcullis } from '../../src/testing';
import { eachTestKit, withDownstream } from '../support/kit-lifecycle';

const AUTH = '/api/v1/auth';

/** The `kid` a token's header names. */
function kidOf(token: string): unknown {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')).kid;
}

describe('pc.rotateSigningKey: the kit\'s service signs with a new key, as after an operator\'s rotation', () => {
  const kit = eachTestKit(() => createTestPortcullis());

  it('signs new tokens with a new kid while tokens of the previous key still verify', async () => {
    const pc = kit();
    const owner = (await pc.tenant()).owner;
    const before = owner.token;
    const keyIds = pc.rotateSigningKey();
    expect(keyIds.signing).not.toBe(kidOf(before));
    expect(keyIds.verifying).toEqual([keyIds.signing, kidOf(before)]);

    await pc.login(owner);
    expect(kidOf(owner.token)).toBe(keyIds.signing);
    expect((await request(pc.app).get(`${AUTH}/me`).set(owner.headers)).status).toBe(200);
    expect((await request(pc.app).get(`${AUTH}/me`).set('authorization', `Bearer ${before}`)).status).toBe(200);
  });

  // V9.1.1: a token is accepted only under a key the service holds; a retired key's tokens are refused.
  it('refuses tokens of the retired key with 401 Invalid or expired token, even ones it verified before (V9.1.1)', async () => {
    const pc = kit();
    const owner = (await pc.tenant()).owner;
    const before = owner.token;
    expect((await request(pc.app).get(`${AUTH}/me`).set(owner.headers)).status).toBe(200);

    const keyIds = pc.rotateSigningKey({ retirePrevious: true });
    expect(keyIds.verifying).toEqual([keyIds.signing]);
    const refused = await request(pc.app).get(`${AUTH}/me`).set('authorization', `Bearer ${before}`);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'Invalid or expired token' } });

    await pc.login(owner);
    expect((await request(pc.app).get(`${AUTH}/me`).set(owner.headers)).status).toBe(200);
  });

  it('keeps one previous key, as an instance holds: a second rotation retires the first key', async () => {
    const pc = kit();
    const owner = (await pc.tenant()).owner;
    const first = owner.token;
    pc.rotateSigningKey();
    await pc.login(owner);
    const second = owner.token;
    pc.rotateSigningKey();
    expect((await request(pc.app).get(`${AUTH}/me`).set('authorization', `Bearer ${first}`)).status).toBe(401);
    expect((await request(pc.app).get(`${AUTH}/me`).set('authorization', `Bearer ${second}`)).status).toBe(200);
  });
});

describe('pc.rotateSigningKey on the kit\'s server: a downstream forgets what it remembered of a retired key', () => {
  const kit = eachTestKit(() => startTestPortcullis({ changeHeartbeatMs: 100 }));

  it('refuses at the downstream a token it admitted, once the key that signed it is retired (V9.1.1)', async () => {
    const pc = kit();
    const owner = (await pc.tenant()).owner;
    await withDownstream(pc, async (service) => {
      const whoami = () => supertest(service.app).get('/whoami').set('authorization', `Bearer ${owner.token}`);
      expect((await whoami()).status).toBe(200);
      const refused = await pc.refusedAfter(async () => pc.rotateSigningKey({ retirePrevious: true }), whoami);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'Invalid or expired token' } });
    });
  });
});
