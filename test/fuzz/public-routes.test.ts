import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { TestClock } from '../../src/testing/test-clock';
import { createInvite, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';
import { extraHeaders, nastyString, wireBody } from './arbitraries';
import { assertServerContract, FUZZ_TIMEOUT_MS, fuzzParameters, memoryTarget, sendAndCheck, type FuzzRequest, type FuzzResponse, type FuzzTarget } from './fuzz-harness';
import { AUTH, loginFields, passkeyFields, signupFields } from './routes';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { registerPasskey, TEST_ORIGIN } from '../http-db/passkeys-flow';

const INVITE_TTL_SECONDS = 3600;

/** The JSON the server could have read from a request, or undefined when it was not JSON at all. */
function sentJson(req: FuzzRequest): unknown {
  try {
    if (req.body === undefined) return undefined;
    const bytes = Buffer.from(req.body);
    const encoding = Object.entries(req.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
    return JSON.parse((encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

const normalize = (email: unknown): string => String(email).trim().toLowerCase().normalize('NFC');
const errorOf = (res: FuzzResponse): unknown => (JSON.parse(res.text) as { error?: unknown }).error;

/** POST /login, POST /signup, the passwordless sign-in and the e-mail link routes: no credentials, so the body is the whole attack surface. */
describe('fuzz: public routes', () => {
  let target: FuzzTarget;
  let owner: Account;
  const registered = new Set<string>();
  const pending = new Set<string>();
  const accepted = new Set<string>();
  let expired: string;
  const ceremonies: string[] = [];
  let credentialIds: string[] = [];

  beforeAll(async () => {
    const clock = new TestClock();
    ({ target } = await memoryTarget({ clock, inviteTtlSeconds: INVITE_TTL_SECONDS }));
    const { app } = target;
    owner = await signupOwner(app, 'Fuzz Public');
    expired = (await createInvite(app, owner)).token;
    // A passkey is a second factor: held by someone whose password the login properties do not use.
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await registerPasskey(app, await signupOwner(app, 'Fuzz Passkeys'), authenticator);
    credentialIds = authenticator.credentials.map((c) => c.id);
    for (let i = 0; i < 6; i += 1) ceremonies.push((await request(app).post(`${AUTH}/login/passkey/options`).expect(200)).body.ceremony as string);
    clock.advance({ seconds: INVITE_TTL_SECONDS + 60 });
    for (let i = 0; i < 8; i += 1) pending.add((await createInvite(app, owner)).token);
    const used = [...pending][0]!;
    const joiner = uniqueEmail('joiner');
    await request(app).post(`${AUTH}/signup`).send({ email: joiner, password: PASSWORD, invite_token: used }).expect(201);
    pending.delete(used);
    accepted.add(used);
    registered.add(normalize(owner.email)).add(normalize(joiner));
  });

  afterAll(async () => {
    await target?.close();
  });

  /** A login answered 200 was for a registered e-mail with its very password; any refusal of valid input is 401 Invalid credentials. */
  function loginOutcome(req: FuzzRequest, res: FuzzResponse): void {
    const sent = sentJson(req) as { email?: unknown; password?: unknown } | undefined;
    if (res.status === 200) {
      expect({ email: normalize(sent?.email), password: sent?.password }).toEqual({ email: expect.any(String), password: PASSWORD });
      expect(registered.has(normalize(sent?.email))).toBe(true);
      expect((jwt.decode(JSON.parse(res.text).token as string) as { email: string }).email).toBe(normalize(sent?.email));
    }
    if (res.status === 401) expect(errorOf(res)).toBe('Invalid credentials');
  }

  it('POST /login with any body, content type and encoding: 200 only for the right password', async () => {
    const requests = fc.record({ body: wireBody(loginFields([...registered], PASSWORD)), extra: extraHeaders() })
      .map(({ body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/login`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests, loginOutcome);
  }, FUZZ_TIMEOUT_MS);

  it('POST /login with the right keys and arbitrary values', async () => {
    const requests = loginFields([...registered], PASSWORD)
      .map((fields): FuzzRequest => ({ method: 'POST', path: `${AUTH}/login`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) }));
    await assertServerContract(target, requests, loginOutcome);
  }, FUZZ_TIMEOUT_MS);

  it('POST /signup with the right keys and arbitrary values: every answer agrees with the invites and accounts that exist', async () => {
    const cases = signupFields([...registered], [expired, ...pending, ...accepted], PASSWORD);
    await fc.assert(fc.asyncProperty(cases, async (fields) => {
      const req: FuzzRequest = { method: 'POST', path: `${AUTH}/signup`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) };
      const res = await sendAndCheck(target, req, (_req, answer) => {
        const email = normalize(fields['email']);
        const token = fields['invite_token'];
        const error = answer.status >= 400 ? errorOf(answer) : undefined;
        if (answer.status === 201) {
          expect(registered.has(email)).toBe(false);
          registered.add(email);
          if (typeof token === 'string') {
            expect(pending.has(token)).toBe(true); // only a pending invite lets anyone in
            pending.delete(token);
            accepted.add(token);
          }
        }
        if (answer.status === 409) expect({ error, registered: registered.has(email) }).toEqual({ error: 'Email already registered', registered: true });
        if (error === 'Invite already accepted') expect(accepted.has(token as string)).toBe(true);
        if (error === 'Invite expired') expect(token).toBe(expired);
        if (error === 'Invalid invite token') expect(pending.has(token as string) || accepted.has(token as string) || token === expired).toBe(false);
      });
      fc.pre(res !== null);
    }), fuzzParameters());
  }, FUZZ_TIMEOUT_MS);

  it('POST /signup with any body, content type and encoding', async () => {
    const requests = fc.record({ body: wireBody(signupFields([...registered], [expired, ...pending], PASSWORD)), extra: extraHeaders() })
      .map(({ body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/signup`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests);
  }, FUZZ_TIMEOUT_MS);

  it('keeps the contract for any JSON value as the body of either route', async () => {
    const requests = fc.record({ route: fc.constantFrom('login', 'signup'), body: wireBody() })
      .map(({ route, body }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/${route}`, headers: body.headers, body: body.body }));
    await assertServerContract(target, requests, undefined);
  }, FUZZ_TIMEOUT_MS);

  it('POST /email/verify and /email/change/confirm with any body: never a success without a real link\'s token', async () => {
    const requests = fc.record({ route: fc.constantFrom('email/verify', 'email/change/confirm'), body: wireBody(), extra: extraHeaders() })
      .map(({ route, body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/${route}`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests, (_req, res) => expect(res.status).not.toBe(200));
  }, FUZZ_TIMEOUT_MS);

  it('POST /login/passkey and its options with any body: never a sign-in without an authenticator\'s signature, every refusal the one 401', async () => {
    const requests = fc.record({
      route: fc.constantFrom('login/passkey', 'login/passkey', 'login/passkey/options'),
      body: fc.oneof(wireBody(passkeyFields(ceremonies, credentialIds)), wireBody()),
      extra: extraHeaders(),
    }).map(({ route, body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/${route}`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests, (req, res) => {
      if (req.path.endsWith('/options')) return;
      expect(res.status).not.toBe(200);
      if (res.status === 401) expect(errorOf(res)).toBe('Invalid passkey');
    });
  }, FUZZ_TIMEOUT_MS);

  it('POST /login/mfa with any body: never a success without a real mfa_token and proof', async () => {
    const requests = fc.record({ body: wireBody(), extra: extraHeaders() })
      .map(({ body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/login/mfa`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests, (_req, res) => expect(res.status).not.toBe(200));
  }, FUZZ_TIMEOUT_MS);

  it('POST /sso/exchange with any body: never a sign-in without a real one-time code', async () => {
    const requests = fc.record({ body: fc.oneof(wireBody(fc.record({ code: fc.oneof(nastyString, fc.stringMatching(/^[0-9a-f]{64}$/)) })), wireBody()), extra: extraHeaders() })
      .map(({ body, extra }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/sso/exchange`, headers: { ...extra, ...body.headers }, body: body.body }));
    await assertServerContract(target, requests, (_req, res) => {
      expect(res.status).not.toBe(200);
      if (res.status === 401) expect(errorOf(res)).toBe('Invalid or expired code');
    });
  }, FUZZ_TIMEOUT_MS);

  it('GET /sso/callback and /sso/start with any query: never a sign-in, a callback always goes back to the console', async () => {
    const names = fc.constantFrom('code', 'state', 'iss', 'error', 'email', 'tenant', 'session_state', 'x');
    const requests = fc.record({
      route: fc.constantFrom('sso/callback', 'sso/start'),
      // Values short enough for the request line (a longer one is Node's 431, before any route).
      query: fc.array(fc.tuple(names, nastyString.filter((value) => value.length < 300)), { maxLength: 5 }),
      extra: extraHeaders(),
    }).map(({ route, query, extra }): FuzzRequest => {
      const search = new URLSearchParams(query.map(([name, value]): [string, string] => [name, value.replace(/[\ud800-\udfff]/g, '?')]));
      return { method: 'GET', path: `${AUTH}/${route}?${search.toString()}`, headers: extra };
    });
    await assertServerContract(target, requests, (req, res) => {
      if (!req.path.includes('/sso/callback') || res.status !== 302) return;
      expect(new URL(res.headers['location'] as string).searchParams.get('code')).toBeNull();
    });
  }, FUZZ_TIMEOUT_MS);

  it('never lets a signup through without the fields it requires', async () => {
    // Whatever else a body holds, a 201 needs a string e-mail, a password of 8+ and a tenant name or an invite token.
    const requests = fc.record({ body: wireBody(signupFields([], [...pending], PASSWORD)) })
      .map(({ body }): FuzzRequest => ({ method: 'POST', path: `${AUTH}/signup`, headers: body.headers, body: body.body }));
    await fc.assert(fc.asyncProperty(requests, async (req) => {
      const res = await sendAndCheck(target, req, (_req, answer) => {
        if (answer.status !== 201) return;
        const sent = sentJson(req) as Record<string, unknown>;
        expect(typeof sent['email']).toBe('string');
        expect(typeof sent['password'] === 'string' && [...(sent['password'] as string)].length >= 8).toBe(true);
        expect(typeof sent['tenant_name'] === 'string' || typeof sent['invite_token'] === 'string').toBe(true);
        registered.add(normalize(sent['email']));
        if (typeof sent['invite_token'] === 'string') pending.delete(sent['invite_token']);
      });
      fc.pre(res !== null);
    }), fuzzParameters());
  }, FUZZ_TIMEOUT_MS);
});
