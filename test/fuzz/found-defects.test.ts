import request, { type Response } from 'supertest';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { uniqueEmail } from '../support/test-use-cases';

/**
 * The fuzzers' findings, each shrunk to one request. A property that breaks again points here: these
 * fail with the input spelled out, where a property's counterexample needs decoding.
 */

/** Property 1 and 2 for one response: a refusal, as JSON, never a 5xx. */
function expectCleanRefusal(res: Response): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 400, body: expect.objectContaining({ error: expect.any(String) }) });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

// JSON.stringify writes a lone surrogate half as the escape \ud800, so the body is valid JSON.
const LONE_SURROGATE_EMAIL = '\ud800@example.com';

describe('found by fuzzing: a lone UTF-16 surrogate in an e-mail', () => {
  // class-validator's IsEmail calls validator's isEmail, whose length check runs encodeURI() on the
  // address: encodeURI throws URIError on a lone surrogate, the error mapper does not know it: 500.
  it('POST /login with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    expectCleanRefusal(await request(app).post(`${AUTH}/login`).send({ email: LONE_SURROGATE_EMAIL, password: PASSWORD }));
    expect(logged).toEqual([]);
  });

  it('POST /signup with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    expectCleanRefusal(await request(app).post(`${AUTH}/signup`).send({ email: LONE_SURROGATE_EMAIL, password: PASSWORD, tenant_name: 'x' }));
    expect(logged).toEqual([]);
  });

  it('POST /invite with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    const owner = await signupOwner(app);
    expectCleanRefusal(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: LONE_SURROGATE_EMAIL }));
    expect(logged).toEqual([]);
  });
});

function describeNulInTenantName(name: string, open: () => Promise<DatabaseApp>): void {
  describe(`found by fuzzing: a NUL character in tenant_name (${name})`, () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await open();
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    // Postgres text cannot hold U+0000: the INSERT fails with SQLSTATE 22021 (invalid byte sequence
    // for encoding "UTF8": 0x00), which nothing maps, so the signup answers 500. The memory backend
    // stores the name, so only the SQL backends show it.
    it('POST /signup with {"tenant_name":"a\\u0000b"} answers 400, not 500, and stores nothing', async () => {
      const email = uniqueEmail('nul');
      expectCleanRefusal(await request(ctx.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'a\u0000b' }));
      expect(await ctx.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([]);
    });
  });
}

describeNulInTenantName('PGlite', () => databaseApp('pglite'));
describeIfPostgres('found by fuzzing on Postgres', (url) => describeNulInTenantName('Postgres', () => databaseApp({ postgres: url })));
