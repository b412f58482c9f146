import { ALL_TENANTS } from '../../src/domain/service-key';
import { gzipSync } from 'node:zlib';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { serviceKeyManager } from '../support/verifier-fixtures';

const json = { 'Content-Type': 'application/json' };

/** A syntactically valid address longer than 254 characters, so only the length rule can refuse it. */
const LONG_EMAIL = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;

describe('Request bodies', () => {
  describe('reading', () => {
    it.each(['login', 'signup'])('answers 400 Malformed JSON body on POST /%s', async (route) => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/${route}`).set(json).send('{"email": "a@b.co",');
      expectError(res, 400, 'Malformed JSON body');
      expect(res.text).not.toMatch(/position|Unexpected|SyntaxError/);
    });

    it('answers 413 for a body over 100 kB', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/signup`).set(json)
        .send(JSON.stringify({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'x'.repeat(101 * 1024) }));
      expectError(res, 413, 'Request body too large');
    });

    it('reads a body just under 100 kB (then validation speaks)', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/signup`).set(json)
        .send(JSON.stringify({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'x'.repeat(99 * 1024) }));
      expectError(res, 400, 'tenant_name must be shorter than or equal to 100 characters');
    });

    it.each([
      ['text/plain', JSON.stringify({ email: 'a@b.co', password: PASSWORD })],
      ['application/x-www-form-urlencoded', 'email=a%40b.co&password=correcthorse'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--x--'],
      ['application/vnd.api+json', '{}'],
    ])('answers 415 for Content-Type %s', async (type, body) => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/login`).set('Content-Type', type).send(body);
      expectError(res, 415, 'Content-Type must be application/json');
    });

    it('answers 415 for a body without any Content-Type', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/login`).serialize((b: string) => b).send('{"email":"a@b.co"}').unset('Content-Type');
      expectError(res, 415, 'Content-Type must be application/json');
    });

    it('answers 415 for a charset other than UTF', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/login`).set('Content-Type', 'application/json; charset=latin1').send('{}');
      expectError(res, 415, 'Unsupported charset: use UTF-8');
    });

    describe('charsets, on both body readers (Express, and introspection served directly)', () => {
      const routes = async () => {
        const serviceKeys = new MemoryServiceKeys();
        const { rawKey } = await serviceKeyManager(serviceKeys).create('charsets', ALL_TENANTS);
        const { app } = await buildTestApp({}, { serviceKeys });
        const owner = await signupOwner(app);
        return {
          owner,
          send: (type: string, body: string | Buffer) => [
            request(app).post(`${AUTH}/login`).set('Content-Type', type).send(body),
            request(app).post(`${AUTH}/introspect`).set('x-service-key', rawKey).set('Content-Type', type).send(body),
          ],
        };
      };

      it.each([
        'utf-16', 'UTF-16', 'utf-16le', 'utf-16be', 'utf-32', 'utf-7', 'utf-8-sig', 'utf8', 'iso-8859-1', '"utf-16"', '',
      ])('answers 415 Unsupported charset for charset=%s, as the docs say, never a 400', async (charset) => {
        const { send } = await routes();
        const body = Buffer.from('{"email":"a@b.co","password":"correct horse battery","token":"x"}', charset.includes('16') ? 'utf16le' : 'utf8');
        for (const res of await Promise.all(send(`application/json; charset=${charset}`, body))) {
          expectError(res, 415, 'Unsupported charset: use UTF-8');
        }
      });

      it.each(['utf-8', 'UTF-8', '"utf-8"', 'Utf-8'])('reads the body for charset=%s', async (charset) => {
        const { owner, send } = await routes();
        const [login, introspect] = await Promise.all(send(`application/json; charset=${charset}`, JSON.stringify({ email: owner.email, password: PASSWORD })));
        expect(login!.status).toBe(200);
        expectError(introspect!, 400, 'property email should not exist');
      });
    });

    it('accepts an explicit UTF-8 charset and a gzip-compressed body', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const body = JSON.stringify({ email: owner.email, password: PASSWORD });
      await request(app).post(`${AUTH}/login`).set('Content-Type', 'application/json; charset=UTF-8').send(body).expect(200);
      await request(app).post(`${AUTH}/login`).set(json).set('Content-Encoding', 'gzip')
        .serialize((raw: Buffer) => raw as unknown as string).send(gzipSync(body)).expect(200);
    });

    it('answers 415 for an unknown Content-Encoding', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/login`).set(json).set('Content-Encoding', 'snappy').send('{}');
      expectError(res, 415, 'Unsupported content encoding');
    });

    it.each([['an array', '[]'], ['a string', '"hello"'], ['a number', '42'], ['null', 'null'], ['true', 'true']])(
      'answers 400 when the body is %s',
      async (_label, body) => {
        const { app } = await buildTestApp();
        const res = await request(app).post(`${AUTH}/signup`).set(json).send(body);
        expectError(res, 400, 'Request body must be a JSON object');
      },
    );

    it('treats a missing body as {} so that validation names the missing field', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/login`);
      expectError(res, 400, 'email is required');
      expect(res.body.details).toEqual([
        { field: 'email', message: 'email is required' },
        { field: 'password', message: 'password is required' },
      ]);
    });

    it('gives an absent required field one detail, and a present but wrong one every rule it breaks', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const absent = await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ new_password: 'a new long passphrase' });
      expectError(absent, 400, 'current_password is required');
      expect(absent.body.details).toEqual([{ field: 'current_password', message: 'current_password is required' }]);
      const wrong = await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: 42, new_password: 'a new long passphrase' });
      expectError(wrong, 400, 'current_password must be a string');
      expect(wrong.body.details.length).toBeGreaterThan(1);
    });

    it.each(['__proto__', 'constructor', 'prototype'])('refuses a body with an own key %s, at any depth', async (key) => {
      const { app } = await buildTestApp();
      const top = `{"email":"a@b.co","password":"${PASSWORD}","${key}":{"polluted":true}}`;
      expectError(await request(app).post(`${AUTH}/login`).set(json).send(top), 400, `Request body must not contain the key ${key}`);
      const nested = `{"email":{"${key}":{"polluted":true}},"password":"${PASSWORD}"}`;
      expectError(await request(app).post(`${AUTH}/login`).set(json).send(nested), 400, `Request body must not contain the key ${key}`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a deeply nested body instead of overflowing the stack', async () => {
      const { app, logged } = await buildTestApp();
      const deep = `{"email":${'['.repeat(20_000)}1${']'.repeat(20_000)},"password":"${PASSWORD}"}`;
      expectError(await request(app).post(`${AUTH}/login`).set(json).send(deep), 400, 'Request body is nested too deeply');
      expect(logged).toEqual([]);
    });
  });

  describe('validation', () => {
    const signup = (body: unknown) => async () => {
      const { app } = await buildTestApp();
      return request(app).post(`${AUTH}/signup`).send(body as object);
    };
    const base = () => ({ email: uniqueEmail(), password: PASSWORD, tenant_name: 'Acme' });

    it.each([
      ['an unknown field', { ...base(), tenantName: 'x' }, 'property tenantName should not exist', 'tenantName'],
      ['an invalid e-mail', { ...base(), email: 'not-an-email' }, 'email must be an email', 'email'],
      ['a number as e-mail', { ...base(), email: 12345 }, 'email must be an email', 'email'],
      ['an array as e-mail', { ...base(), email: ['a@b.co'] }, 'email must be an email', 'email'],
      ['a number as password', { ...base(), password: 123456789 }, 'password must be a string', 'password'],
      ['a 7-character password', { ...base(), password: '1234567' }, 'password must be longer than or equal to 8 characters', 'password'],
      ['a 1025-character password', { ...base(), password: 'p'.repeat(1025) }, 'password must be shorter than or equal to 1024 characters', 'password'],
      ['an empty tenant_name', { ...base(), tenant_name: '' }, 'tenant_name must be longer than or equal to 1 characters', 'tenant_name'],
      ['a 101-character tenant_name', { ...base(), tenant_name: 't'.repeat(101) }, 'tenant_name must be shorter than or equal to 100 characters', 'tenant_name'],
      ['a number as tenant_name', { ...base(), tenant_name: 7 }, 'tenant_name must be a string', 'tenant_name'],
      ['null as tenant_name', { ...base(), tenant_name: null }, 'tenant_name must be a string', 'tenant_name'],
      ['a number as invite_token', { ...base(), invite_token: 1 }, 'invite_token must be a string', 'invite_token'],
      ['an over-long invite_token', { ...base(), invite_token: 'a'.repeat(257) }, 'invite_token must be shorter than or equal to 256 characters', 'invite_token'],
    ])('signup: answers 400 naming the field for %s', async (_label, body, message, field) => {
      const res = await signup(body)();
      expectError(res, 400, message);
      expect(res.body.details).toContainEqual({ field, message });
    });

    it.each([
      ['login', { password: PASSWORD }],
      ['signup', { password: PASSWORD, tenant_name: 'x' }],
      ['invite', {}],
    ])('%s: refuses an e-mail over 254 characters', async (route, rest) => {
      // validator's isEmail has its own 254 limit, so both rules speak; the type rule is listed first.
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const res = await request(app).post(`${AUTH}/${route}`).set(bearer(owner)).send({ email: LONG_EMAIL, ...rest });
      expectError(res, 400, 'email must be an email');
      expect(res.body.details).toContainEqual({ field: 'email', message: 'email must be shorter than or equal to 254 characters' });
    });

    it('login: checks the same rules on e-mail and password', async () => {
      const { app } = await buildTestApp();
      const cases: Array<[object, string]> = [
        [{ email: 'nope', password: PASSWORD }, 'email must be an email'],
        [{ email: true, password: PASSWORD }, 'email must be an email'],
        [{ email: uniqueEmail(), password: 'short' }, 'password must be longer than or equal to 8 characters'],
        [{ email: uniqueEmail(), password: 'p'.repeat(1025) }, 'password must be shorter than or equal to 1024 characters'],
        [{ email: uniqueEmail(), password: PASSWORD, remember: true }, 'property remember should not exist'],
      ];
      for (const [body, message] of cases) expectError(await request(app).post(`${AUTH}/login`).send(body), 400, message);
    });

    it('invite: refuses role owner, an unknown role, a bad e-mail and unknown fields', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const roles = 'role must be one of the following values: admin, member, viewer';
      const cases: Array<[object, string]> = [
        [{ email: uniqueEmail(), role: 'owner' }, roles],
        [{ email: uniqueEmail(), role: 'superuser' }, roles],
        [{ email: uniqueEmail(), role: null }, roles],
        [{ email: 'nope' }, 'email must be an email'],
        [{}, 'email is required'],
        [{ email: uniqueEmail(), tenant_id: 'x' }, 'property tenant_id should not exist'],
      ];
      for (const [body, message] of cases) {
        expectError(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send(body), 400, message);
      }
      const list = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
      expect(list.body.invites).toEqual([]);
    });

    it('invite: the body goes through the same reader (malformed, 415, non-object)', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      expectError(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).set(json).send('{'), 400, 'Malformed JSON body');
      expectError(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).set('Content-Type', 'text/plain').send('x'), 415,
        'Content-Type must be application/json');
      expectError(await request(app).post(`${AUTH}/invite`).set(bearer(owner)).set(json).send('[]'), 400, 'Request body must be a JSON object');
    });

    describe('a body of unknown keys, up to the size limit', () => {
      const manyShortKeys = `{${Array.from({ length: 9_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
      const oneLongKey = `{"${'x'.repeat(84 * 1024)}":0}`;
      const nestedValues = `{${Array.from({ length: 3_000 }, (_, i) => `"k${i}":{"a":[1,2,{"b":"c"}]}`).join(',')}}`;
      const LONG_NAME_SHOWN = `${'x'.repeat(64)}\u2026`;

      it.each([
        ['many short keys', manyShortKeys, 'k0'],
        ['one key of 84 kB', oneLongKey, LONG_NAME_SHOWN],
        ['many keys with nested values', nestedValues, 'k0'],
      ])('is refused without an answer that grows with it (%s): at most 20 details, under 4 kB', async (_name, body, first) => {
        expect(body.length).toBeGreaterThan(80 * 1024);
        const { app } = await buildTestApp();
        for (const route of ['login', 'signup']) {
          const res = await request(app).post(`${AUTH}/${route}`).set(json).send(body);
          expectError(res, 400, `property ${first} should not exist`);
          expect(res.body.details[0]).toEqual({ field: first, message: `property ${first} should not exist` });
          expect(res.body.details.length).toBeLessThanOrEqual(20);
          expect(Buffer.byteLength(res.text)).toBeLessThan(4 * 1024);
        }
      });

      it('lists the first twenty unknown fields, in the order sent', async () => {
        const { app } = await buildTestApp();
        const res = await request(app).post(`${AUTH}/login`).set(json).send(manyShortKeys);
        expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
      });

      it('cuts an unknown field\'s name after 64 characters, without splitting a character', async () => {
        const { app } = await buildTestApp();
        const name = `${'y'.repeat(63)}\u{1f600}tail`;
        const res = await request(app).post(`${AUTH}/login`).send({ [name]: 1, email: 'a@b.co', password: PASSWORD });
        expectError(res, 400, `property ${'y'.repeat(63)}\u2026 should not exist`);
        const exact = await request(app).post(`${AUTH}/login`).send({ ['z'.repeat(64)]: 1 });
        expect(exact.body.details[0].field).toBe('z'.repeat(64));
      });

      it('bounds the answer on every body reader: a protected route, and introspection served directly', async () => {
        const serviceKeys = new MemoryServiceKeys();
        const { rawKey } = await serviceKeyManager(serviceKeys).create('bounded', ALL_TENANTS);
        const { app } = await buildTestApp({}, { serviceKeys });
        const owner = await signupOwner(app);
        for (const res of [
          await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).set(json).send(manyShortKeys),
          await request(app).post(`${AUTH}/introspect`).set('x-service-key', rawKey).set(json).send(manyShortKeys),
        ]) {
          expectError(res, 400, 'property k0 should not exist');
          expect(res.body.details).toHaveLength(20);
          expect(Buffer.byteLength(res.text)).toBeLessThan(4 * 1024);
        }
      });

      it('bounds the query string\'s details the same way', async () => {
        const { app } = await buildTestApp();
        const owner = await signupOwner(app);
        const query = Array.from({ length: 500 }, (_, i) => `q${i}=1`).join('&');
        const res = await request(app).get(`${AUTH}/audit-events?${query}`).set(bearer(owner));
        expectError(res, 400, 'property q0 should not exist');
        expect(res.body.details).toHaveLength(20);
      });
    });

    it('lists every complaint under details, first message first', async () => {
      const res = await signup({ email: 5, password: 5, tenant_name: '', extra: 1 })();
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(res.body.details[0].message);
      expect(res.body.details).toEqual([
        { field: 'extra', message: 'property extra should not exist' },
        { field: 'email', message: 'email must be an email' },
        { field: 'email', message: 'email must be shorter than or equal to 254 characters' },
        { field: 'password', message: 'password must be a string' },
        { field: 'password', message: 'password must be longer than or equal to 8 characters' },
        { field: 'password', message: 'password must be shorter than or equal to 1024 characters' },
        { field: 'tenant_name', message: 'tenant_name must be longer than or equal to 1 characters' },
      ]);
    });
  });
});
