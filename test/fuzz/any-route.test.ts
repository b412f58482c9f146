import fc from 'fast-check';
import { createApiKey, signupOwner } from '../support/http-fixtures';
import { extraHeaders, httpMethod, pathSegment, wireBody } from './arbitraries';
import { assertServerContract, FUZZ_TIMEOUT_MS, memoryTarget, type FuzzRequest, type FuzzTarget } from './fuzz-harness';
import { AUTH } from './routes';

const KNOWN_PATHS = [
  '/login', '/signup', '/me', '/api-keys', '/invite', '/invites', '/invites/x',
  '/mfa/passkeys', '/mfa/passkeys/options', '/mfa/passkeys/x', '/login/passkey', '/login/passkey/options',
].map((p) => `${AUTH}${p}`);

/**
 * Request targets as Node's parser accepts them: origin-form (starting with /), asterisk-form and
 * absolute-form. Anything else (a bare word, a byte outside 0x21-0x7E) Node answers itself with a
 * bare 400 and a closed connection before the app is called, so it is not the app's to test.
 */
const requestTarget: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_PATHS) },
  { weight: 3, arbitrary: fc.array(pathSegment, { minLength: 1, maxLength: 4 }).map((segments) => `${AUTH}/${segments.join('/')}`) },
  { weight: 2, arbitrary: fc.array(pathSegment, { minLength: 0, maxLength: 5 }).map((segments) => `/${segments.join('/')}`) },
  // Case, trailing slashes, doubled slashes, dot segments and encoded letters around the real routes.
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KNOWN_PATHS), fc.constantFrom('upper', 'slash', 'double', 'dot', 'encoded', 'semicolon'))
    .map(([path, twist]) => {
      switch (twist) {
        case 'upper': return path.toUpperCase();
        case 'slash': return `${path}/`;
        case 'double': return path.replace(/\//g, '//');
        case 'dot': return path.replace('/auth/', '/auth/./');
        case 'encoded': return path.replace(/e/g, '%65');
        default: return `${path};jsessionid=1`;
      }
    }) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KNOWN_PATHS), fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }))
    .map(([path, query]) => `${path}?${query}`) },
  { weight: 1, arbitrary: fc.constantFrom('*', '/', '//', '/healthz', '/healthz?x', `http://evil.example${AUTH}/me`, `https://localhost:1/${AUTH}/login`) },
);

/** Every method Node parses, on any path, with any headers and body: the app's whole surface. */
describe('fuzz: any method, any path', () => {
  let target: FuzzTarget;
  let credentials: fc.Arbitrary<Record<string, string>>;

  beforeAll(async () => {
    ({ target } = await memoryTarget());
    const owner = await signupOwner(target.app, 'Fuzz Any');
    const key = await createApiKey(target.app, owner);
    credentials = fc.constantFrom<Record<string, string>>({}, { authorization: `Bearer ${owner.token}` }, { 'x-api-key': key });
  });

  afterAll(async () => {
    await target?.close();
  });

  it('keeps the contract for any method and request target, with or without credentials', async () => {
    const requests = fc.record({ method: httpMethod, path: requestTarget, credentials, body: wireBody(), extra: extraHeaders() })
      .map(({ method, path, credentials: creds, body, extra }): FuzzRequest => ({
        method, path, headers: { ...extra, ...body.headers, ...creds }, body: body.body,
      }));
    await assertServerContract(target, requests);
  }, FUZZ_TIMEOUT_MS);

  it('keeps the contract for a preflight or a HEAD from any origin', async () => {
    const requests = fc.record({
      method: fc.constantFrom('OPTIONS', 'HEAD'),
      path: requestTarget,
      origin: fc.oneof(fc.constantFrom('http://localhost:5173', 'null', 'http://localhost:5173.evil.example', 'HTTP://LOCALHOST:5173'), fc.webUrl()),
      wanted: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'QUERY', 'x'),
      extra: extraHeaders(),
    }).map(({ method, path, origin, wanted, extra }): FuzzRequest => ({
      method, path, headers: { ...extra, origin, 'access-control-request-method': wanted },
    }));
    await assertServerContract(target, requests);
  }, FUZZ_TIMEOUT_MS);
});
