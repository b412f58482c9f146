import { request } from '../../../test/support/contract-request';
import { createTestPortcullis, type TestPortcullis } from 'portcullis/testing';
import { notesModule } from '../notes-module';

/*
 * The notes module's role rules and credential states, written the way a product team tests its
 * own module: one Portcullis per test from the kit, each state arranged in one line.
 */
const NOTES = '/api/v1/notes';

let pc: TestPortcullis;
beforeEach(async () => {
  pc = await createTestPortcullis({ modules: [notesModule] });
});

describe('who may do what with notes', () => {
  it.each([
    ['owner', 201, 200, 200],
    ['admin', 201, 200, 200],
    ['member', 201, 200, 403],
    ['viewer', 403, 200, 403],
  ] as const)('%s: write %i, list %i, delete %i', async (role, write, list, remove) => {
    const acme = await pc.tenant();
    const who = await pc.member(acme, role);
    const note = await request(pc.app).post(NOTES).set(acme.owner.headers).send({ title: 'Existing' }).expect(201);

    expect((await request(pc.app).post(NOTES).set(who.headers).send({ title: 'Mine' })).status).toBe(write);
    expect((await request(pc.app).get(NOTES).set(who.headers)).status).toBe(list);
    expect((await request(pc.app).delete(`${NOTES}/${note.body.id}`).set(who.headers)).status).toBe(remove);
  });

  it('the same with an API key: the key acts with its owner\'s role', async () => {
    const acme = await pc.tenant();
    const viewerKey = await pc.apiKey(await pc.member(acme, 'viewer'));
    const memberKey = await pc.apiKey(await pc.member(acme, 'member'));
    expect((await request(pc.app).post(NOTES).set(viewerKey.headers).send({ title: 'x' })).body).toEqual({ error: 'Requires member role or higher' });
    expect((await request(pc.app).post(NOTES).set(memberKey.headers).send({ title: 'x' })).status).toBe(201);
  });
});

describe('credentials that no longer stand', () => {
  it('a revoked key, an expired key and a removed member are refused on the notes routes', async () => {
    const acme = await pc.tenant();
    const revoked = await pc.revokedApiKey(acme.owner);
    const expired = await pc.expiredApiKey(acme.owner);
    const removed = await pc.removedMember(acme, 'admin');
    expect((await request(pc.app).get(NOTES).set(revoked.headers)).body).toEqual({ error: 'Invalid API key' });
    expect((await request(pc.app).get(NOTES).set(expired.headers)).body).toEqual({ error: 'Invalid API key' });
    expect((await request(pc.app).get(NOTES).set(removed.headers)).body).toEqual({ error: 'Invalid or expired token' });
  });

  it('a key made to last a week stops working a week later', async () => {
    const acme = await pc.tenant();
    const key = await pc.apiKey(acme.owner, { expiresInDays: 7 });
    await request(pc.app).post(NOTES).set(key.headers).send({ title: 'Before' }).expect(201);
    pc.advanceTime({ days: 7 });
    expect((await request(pc.app).post(NOTES).set(key.headers).send({ title: 'After' })).status).toBe(401);
  });
});
