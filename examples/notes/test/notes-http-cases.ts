import { request } from '../../../test/support/contract-request';
import type { TestMember, TestPortcullis } from 'portcullis/testing';
import { AUTH, expectError } from '../../../test/support/http-fixtures';

// Opening a database (PGlite above all) can take long on a busy machine.
const OPEN_TIMEOUT_MS = 120_000;

const NOTES = '/api/v1/notes';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A tenant with one member of each role, arranged by the test kit through identity's use-cases. */
async function team(pc: TestPortcullis) {
  return pc.team(await pc.tenant({ name: 'Notes Co' }));
}

async function write(pc: TestPortcullis, who: TestMember, title: string, body?: string) {
  const res = await request(pc.app).post(NOTES).set(who.headers).send(body === undefined ? { title } : { title, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; title: string; body: string; created_by: string; created_at: string };
}

async function auditActions(pc: TestPortcullis, admin: TestMember, action: string) {
  const res = await request(pc.app).get(`${AUTH}/audit-events?action=${action}`).set(admin.headers);
  expect(res.status).toBe(200);
  return res.body.events as Array<{ action: string; target_id: string | null; actor_user_id: string; details: Record<string, unknown> }>;
}

/**
 * The notes module's contract over HTTP, as a product team's client sees it: the same cases over
 * memory, PGlite and Postgres, on the test kit's Portcullis (wired as `npm run example:notes` wires it).
 */
export function describeNotesHttpCases(name: string, open: () => Promise<TestPortcullis>): void {
  describe(`notes over HTTP: ${name}`, () => {
    let pc: TestPortcullis;
    beforeAll(async () => {
      pc = await open();
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await pc?.close();
    });

    it('lets a member write a note and answers 201 with the note', async () => {
      const { member } = await team(pc);
      const res = await request(pc.app).post(NOTES).set(member.headers).send({ title: 'Standup', body: 'Ship the module seam' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/), title: 'Standup', body: 'Ship the module seam',
        created_by: member.userId, created_at: expect.any(String),
      });
      expect(Date.parse(res.body.created_at as string)).not.toBeNaN();
      expect((await write(pc, member, 'No body')).body).toBe('');
    });

    it('answers the contract\'s 401 and 403 exactly', async () => {
      const { viewer, member } = await team(pc);
      expectError(await request(pc.app).post(NOTES).send({ title: 'x' }), 401, 'Missing authentication');
      expectError(await request(pc.app).get(NOTES), 401, 'Missing authentication');
      expectError(await request(pc.app).delete(`${NOTES}/${UNKNOWN_ID}`), 401, 'Missing authentication');
      expectError(await request(pc.app).get(NOTES).set('Authorization', 'Bearer not-a-token'), 401, 'Invalid or expired token');
      expectError(await request(pc.app).get(NOTES).set('x-api-key', 'pcls_short'), 401, 'Invalid API key format');
      // The role is checked before the body is read: a viewer learns nothing of the body's schema.
      expectError(await request(pc.app).post(NOTES).set(viewer.headers).send({ nonsense: true }), 403, 'Requires member role or higher');
      expectError(await request(pc.app).delete(`${NOTES}/${UNKNOWN_ID}`).set(member.headers), 403, 'Requires admin role or higher');
    });

    it('takes an API key like any protected route, acting as its owner', async () => {
      const { owner } = await team(pc);
      const key = await pc.apiKey(owner);
      const res = await request(pc.app).post(NOTES).set(key.headers).send({ title: 'By key' });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(owner.userId);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no title', {}, 'title'],
      ['an empty title', { title: '' }, 'title'],
      ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
      ['a title that is not a string', { title: 42 }, 'title'],
      ['a body of 10001 characters', { title: 'ok', body: 'x'.repeat(10_001) }, 'body'],
      ['a null body', { title: 'ok', body: null }, 'body'],
      ['an unknown field', { title: 'ok', pinned: true }, 'pinned'],
    ])('refuses %s with 400 and details naming the field', async (_name, body, field) => {
      const { member } = await team(pc);
      const res = await request(pc.app).post(NOTES).set(member.headers).send(body);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(res.body.error).toBe(res.body.details[0].message);
    });

    it.each([
      ['a newline', 'Stand\nup', 'control characters'],
      ['a right-to-left override', 'Standup \u202etxt.exe', 'invisible formatting characters'],
      ['a zero-width joiner', 'Stand\u200dup', 'invisible formatting characters'],
      ['a combining mark with no base', '\u0336Standup', 'combining marks without a base character'],
    ])('refuses a title with %s, as identity refuses names: 400 naming the field', async (_name, title, kind) => {
      const { member } = await team(pc);
      expectError(await request(pc.app).post(NOTES).set(member.headers).send({ title }), 400, `title must not contain ${kind}`);
    });

    it('stores a title NFC-normalised and counts its length as stored, never a 500 from the table\'s own limit', async () => {
      const { member } = await team(pc);
      expect((await write(pc, member, 'Cafe\u0301 notes')).title).toBe('Caf\u00e9 notes');
      // 200 characters sent, 300 once NFC has written each U+0F73 as its two marks.
      expectError(await request(pc.app).post(NOTES).set(member.headers).send({ title: '\u0f40\u0f73'.repeat(100) }), 400,
        'title must be shorter than or equal to 200 characters');
    });

    it('accepts a title of 200 and a body of 10000 characters', async () => {
      const { member } = await team(pc);
      const note = await write(pc, member, 't'.repeat(200), 'b'.repeat(10_000));
      expect([note.title.length, note.body.length]).toEqual([200, 10_000]);
    });

    it('lists the caller\'s tenant\'s notes only, newest first, to any member including a viewer', async () => {
      const { member, viewer } = await team(pc);
      const other = await team(pc);
      const first = await write(pc, member, 'first');
      await write(pc, other.member, 'not yours');
      const second = await write(pc, member, 'second');
      const third = await write(pc, member, 'third');

      const res = await request(pc.app).get(NOTES).set(viewer.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ notes: [third, second, first] });
      // Also through Express (with a query string the URL is not the route's exact one): the same answer.
      expect((await request(pc.app).get(`${NOTES}?x=1`).set(viewer.headers)).body).toEqual(res.body);
      expect((await request(pc.app).get(NOTES).set(other.viewer.headers)).body.notes.map((n: { title: string }) => n.title)).toEqual(['not yours']);
    });

    it('lets an admin delete a note; another tenant\'s, an unknown and a malformed id are 404', async () => {
      const { admin, member, owner } = await team(pc);
      const other = await team(pc);
      const mine = await write(pc, member, 'to delete');
      const theirs = await write(pc, other.member, 'theirs');

      expectError(await request(pc.app).delete(`${NOTES}/${theirs.id}`).set(admin.headers), 404, 'Note not found');
      expectError(await request(pc.app).delete(`${NOTES}/${UNKNOWN_ID}`).set(admin.headers), 404, 'Note not found');
      expectError(await request(pc.app).delete(`${NOTES}/not-a-uuid`).set(admin.headers), 404, 'Note not found');

      const res = await request(pc.app).delete(`${NOTES}/${mine.id.toUpperCase()}`).set(admin.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true });
      expectError(await request(pc.app).delete(`${NOTES}/${mine.id}`).set(owner.headers), 404, 'Note not found');
      expect((await request(pc.app).get(NOTES).set(member.headers)).body).toEqual({ notes: [] });
      expect((await request(pc.app).get(NOTES).set(other.member.headers)).body.notes).toEqual([theirs]);
    });

    it('records its actions, and refusals, in the tenant\'s audit trail', async () => {
      const { owner, admin, member, viewer } = await team(pc);
      const other = await team(pc);
      const note = await write(pc, member, 'audited');
      const theirs = await write(pc, other.member, 'theirs');
      await request(pc.app).delete(`${NOTES}/${note.id}`).set(admin.headers).expect(200);
      await request(pc.app).delete(`${NOTES}/${theirs.id}`).set(admin.headers).expect(404);
      await request(pc.app).post(NOTES).set(viewer.headers).send({ title: 'nope' }).expect(403);

      expect(await auditActions(pc, owner, 'note.created')).toEqual([
        expect.objectContaining({ action: 'note.created', target_id: note.id, actor_user_id: member.userId }),
      ]);
      expect(await auditActions(pc, owner, 'note.deleted')).toEqual([
        expect.objectContaining({ action: 'note.deleted', target_id: note.id, actor_user_id: admin.userId }),
      ]);
      const denied = await auditActions(pc, owner, 'access.denied');
      expect(denied).toEqual(expect.arrayContaining([
        expect.objectContaining({ actor_user_id: admin.userId, target_id: theirs.id, details: { reason: 'tenant', resource: 'note' } }),
        expect.objectContaining({ actor_user_id: viewer.userId, details: { reason: 'role', role: 'viewer', required_role: 'member' } }),
      ]));
      // The other tenant's trail has its own note's creation and nothing of this tenant's.
      const theirTrail = await auditActions(pc, other.owner, 'note.created');
      expect(theirTrail.map((event) => event.target_id)).toEqual([theirs.id]);
    });

    it('leaves an unknown path a 404, never a 401, with or without credentials', async () => {
      const { owner } = await team(pc);
      for (const path of [`${NOTES}/${UNKNOWN_ID}/pin`, `${NOTES}s`, '/api/v1/note']) {
        expectError(await request(pc.app).get(path), 404, 'Not found');
        expectError(await request(pc.app).get(path).set(owner.headers), 404, 'Not found');
      }
      expectError(await request(pc.app).get(`${NOTES}/${UNKNOWN_ID}`), 404, 'Not found'); // no GET of one note
      expectError(await request(pc.app).put(NOTES).send({}), 404, 'Not found');
    });

    it('serves its paths and audit actions in /api/v1/openapi.json, with identity\'s', async () => {
      const res = await request(pc.app).get('/api/v1/openapi.json').expect(200);
      expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining([`${AUTH}/me`, NOTES, `${NOTES}/{id}`]));
      expect(res.body.paths[NOTES].post.operationId).toBe('createNote');
      expect(res.body.components.schemas.AuditAction.enum).toEqual(expect.arrayContaining(['login.failed', 'note.created', 'note.deleted']));
    });
  });
}
