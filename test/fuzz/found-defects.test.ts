import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, PASSWORD, signupOwner } from '../support/http-fixtures';

/**
 * The fuzzers' findings, each shrunk to one request and kept as a regression test: should a property
 * break the same way again, these fail with the input spelled out, where a counterexample needs decoding.
 * (The NUL in a tenant name, which only a SQL backend refused, is in sql-backends.test.ts.)
 */

/** A refusal with the body guard's message (src/adapters/http/body/json-guards.ts), as JSON, never a 5xx. */
function expectCleanRefusal(res: Response, message: string): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 400, body: { error: message } });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

const UNPAIRED = 'Request body must not contain unpaired UTF-16 surrogates';

// JSON.stringify writes a lone surrogate half as the escape \ud800, so the body is valid JSON.
const LONE_SURROGATE_EMAIL = '\ud800@example.com';

describe('found by fuzzing: a lone UTF-16 surrogate in an e-mail', () => {
  // Was a 500: class-validator's IsEmail calls validator's isEmail, whose length check runs encodeURI()
  // on the address, and encodeURI throws URIError on a lone surrogate, which the error mapper did not know.
  it('POST /login with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    expectCleanRefusal(await request(app).post(`${AUTH}/login`).send({ email: LONE_SURROGATE_EMAIL, password: PASSWORD }), UNPAIRED);
    expect(logged).toEqual([]);
  });

  it('POST /signup with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    expectCleanRefusal(await request(app).post(`${AUTH}/signup`).send({ email: LONE_SURROGATE_EMAIL, password: PASSWORD, tenant_name: 'x' }), UNPAIRED);
    expect(logged).toEqual([]);
  });

  it('POST /invite with {"email":"\\ud800@example.com"} answers 400, not 500', async () => {
    const { app, logged } = await buildTestApp();
    const owner = await signupOwner(app);
    expectCleanRefusal(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: LONE_SURROGATE_EMAIL }), UNPAIRED);
    expect(logged).toEqual([]);
  });
});
