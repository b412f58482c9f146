import { request } from '../support/contract-request';
import { hiddenCharacterIn } from '../../src/domain/visible-text';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';

let counter = 0;
const local = () => {
  counter += 1;
  return `spoof-${process.pid}-${counter}`;
};

describe('text that does not show what it holds', () => {
  it.each([
    ['a zero-width space', '\u200b', 'invisible formatting characters'],
    ['a right-to-left override', '\u202e', 'invisible formatting characters'],
    ['a left-to-right isolate', '\u2066', 'invisible formatting characters'],
    ['a byte-order mark', '\ufeff', 'invisible formatting characters'],
    ['a soft hyphen', '\u00ad', 'invisible formatting characters'],
    ['a bell', '\u0007', 'control characters'],
    ['an escape', '\u001b', 'control characters'],
    ['a C1 control', '\u0085', 'control characters'],
  ])('is found: %s', (_name, char, kind) => {
    expect(hiddenCharacterIn(`ab${char}cd`)).toBe(kind);
  });

  it('finds a combining mark with nothing to sit on, and accepts one on a letter or digit', () => {
    expect(hiddenCharacterIn('\u0301acme')).toBe('combining marks without a base character');
    expect(hiddenCharacterIn('acme \u0301inc')).toBe('combining marks without a base character');
    expect(hiddenCharacterIn('a.\u0338b')).toBe('combining marks without a base character');
    expect(hiddenCharacterIn('Cafe\u0301')).toBeNull();
    expect(hiddenCharacterIn('Zoë & Søn, 東京 Ltd.')).toBeNull();
    expect(hiddenCharacterIn('\u0905\u093f')).toBeNull(); // Devanagari: a vowel sign on its letter
  });
});

describe('spoofing inputs over HTTP', () => {
  it('refuses an e-mail or tenant name with control, invisible or baseless combining characters: 400 naming the field', async () => {
    const { app } = await buildTestApp();
    const signup = (body: Record<string, unknown>) => request(app).post(`${AUTH}/signup`).send({ password: PASSWORD, ...body });

    expectError(await signup({ email: `${local()}\u200b@example.com`, tenant_name: 'Acme' }), 400,
      'email must not contain invisible formatting characters');
    expectError(await signup({ email: `${local()}@example.com`, tenant_name: 'Acme \u202eCorp' }), 400,
      'tenant_name must not contain invisible formatting characters');
    expectError(await signup({ email: `${local()}@example.com`, tenant_name: 'Acme\u0007' }), 400,
      'tenant_name must not contain control characters');
    expectError(await signup({ email: `${local()}@example.com`, tenant_name: '\u0336Acme' }), 400,
      'tenant_name must not contain combining marks without a base character');

    const owner = await signupOwner(app);
    const invite = await request(app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: `${local()}@exa\u202emple.com` });
    expectError(invite, 400, 'email must not contain invisible formatting characters');
  });

  it('treats an e-mail written with a decomposed accent as the same address as the composed one', async () => {
    const { app } = await buildTestApp();
    const name = local();
    const composed = `jos\u00e9-${name}@example.com`;
    const decomposed = `jose\u0301-${name}@example.com`;
    expect((await request(app).post(`${AUTH}/signup`).send({ email: decomposed, password: PASSWORD, tenant_name: 'Acme' })).status).toBe(201);
    expectError(await request(app).post(`${AUTH}/signup`).send({ email: composed, password: PASSWORD, tenant_name: 'Acme' }), 409, 'Email already registered');
    expect((await request(app).post(`${AUTH}/login`).send({ email: composed, password: PASSWORD })).status).toBe(200);
    const login = await request(app).post(`${AUTH}/login`).send({ email: decomposed, password: PASSWORD });
    expect(login.status).toBe(200);
    const members = await request(app).get(`${AUTH}/members`).set('authorization', `Bearer ${login.body.token as string}`);
    expect(members.body.members[0].email).toBe(composed.toLowerCase());
  });

  it('stores a tenant name NFC-normalised', async () => {
    const { app, storage } = await buildTestApp();
    const res = await request(app).post(`${AUTH}/signup`).send({ email: `${local()}@example.com`, password: PASSWORD, tenant_name: 'Cafe\u0301 Ltd' });
    expect(res.status).toBe(201);
    const tenant = await storage.repos.tenants.findById(res.body.tenant_id as string);
    expect(tenant?.name).toBe('Caf\u00e9 Ltd');
  });
});

describe('one visible-text rule for every name a person gives', () => {
  /** 100 Tibetan letters each with U+0F73, which NFC writes as two marks: 200 characters sent, 300 stored. */
  const GROWS_UNDER_NFC = '\u0f40\u0f73'.repeat(100);

  it.each([
    ['a newline', 'CI\ndeploy', 'control characters'],
    ['a carriage return', 'CI\rdeploy', 'control characters'],
    ['an escape sequence', 'CI \u001b[2Kdeploy', 'control characters'],
    ['a right-to-left override', 'CI \u202eyolped', 'invisible formatting characters'],
    ['a zero-width space', 'CI\u200bdeploy', 'invisible formatting characters'],
    ['a combining mark with no base', '\u0336CI deploy', 'combining marks without a base character'],
  ])('refuses an API key name with %s: 400 naming the field, and no key is made', async (_name, keyName, kind) => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    expectError(await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: keyName }), 400, `name must not contain ${kind}`);
    expect((await request(app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys).toEqual([]);
  });

  it('stores an API key name NFC-normalised, and counts its length as stored', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const created = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: 'Cafe\u0301 deploy' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Caf\u00e9 deploy');
    expect((await request(app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0].name).toBe('Caf\u00e9 deploy');
    expectError(await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: GROWS_UNDER_NFC.slice(0, 100) }), 400,
      'name must be shorter than or equal to 100 characters');
  });

  it('has CreateApiKey itself store the NFC form, whichever adapter calls it', async () => {
    const { app, useCases } = await buildTestApp();
    const owner = await signupOwner(app);
    const created = await useCases.createApiKey.execute({ tenantId: owner.tenantId, userId: owner.userId, role: 'owner', method: 'jwt' }, { name: 'Cafe\u0301' });
    expect(created.name).toBe('Caf\u00e9');
    expect((await request(app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0].name).toBe('Caf\u00e9');
  });

  it('counts a tenant name\'s length as stored, after NFC', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post(`${AUTH}/signup`).send({ email: `${local()}@example.com`, password: PASSWORD, tenant_name: GROWS_UNDER_NFC.slice(0, 100) });
    expectError(res, 400, 'tenant_name must be shorter than or equal to 100 characters');
  });
});
