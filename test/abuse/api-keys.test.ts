import { randomBytes } from 'node:crypto';
import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, expectError, signupOwner, type Account } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';

const hex32 = (): string => randomBytes(16).toString('hex');

/**
 * One test per attack on the x-api-key header (docs/contract.md, "Authentication of protected routes", step 1). The key alone decides: each attack
 * also carries a valid bearer token, which must not rescue it.
 */
describe('abuse: API keys', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
  let owner: Account;
  let key: string;

  beforeAll(async () => {
    ({ app } = await buildTestApp());
    owner = await signupOwner(app, 'Key Abuse');
    key = await createApiKey(app, owner);
  });

  const me = (apiKey: string) => request(app).get(`${AUTH}/me`).set('x-api-key', apiKey).set(bearer(owner));

  it('control: the issued key is accepted (so every refusal below is the defence at work)', async () => {
    const res = await request(app).get(`${AUTH}/me`).set('x-api-key', key);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(owner.userId);
  });

  it.each([
    ['upper-case prefix', () => `PCLS_${hex32()}`],
    ['another vendor\'s prefix', () => `sk_l_${hex32()}`],
    ['a hyphen for the underscore', () => `pcls-${hex32()}`],
    ['the prefix moved to the end', () => `${hex32()}pcls_`],
    ['the real key with its prefix changed', () => `pclx_${key.slice(5)}`],
  ])('wrong prefix (%s), right length: 401 Invalid API key format', async (_label, make) => {
    const forged = make();
    expect(forged).toHaveLength(37);
    expectError(await me(forged), 401, 'Invalid API key format');
  });

  it.each([
    ['one character short', () => key.slice(0, -1)],
    ['one character long', () => `${key}0`],
    ['the prefix alone', () => 'pcls_'],
    ['empty', () => ''],
    ['two keys joined', () => `${key}${key}`],
    ['4 kB of key', () => `pcls_${'a'.repeat(4096)}`],
  ])('wrong length (%s): 401 Invalid API key format', async (_label, make) => {
    expectError(await me(make()), 401, 'Invalid API key format');
  });

  it.each([
    ['upper-case hex of the real key', () => `pcls_${key.slice(5).toUpperCase()}`],
    ['letters beyond f', () => `pcls_${'z'.repeat(32)}`],
    ['punctuation', () => `pcls_${'!$%&'.repeat(8)}`],
    ['Latin-1 letters', () => `pcls_${'é'.repeat(32)}`],
    ['the real key with its last character outside hex', () => `${key.slice(0, -1)}g`],
  ])('wrong alphabet (%s), right prefix and length: 401 Invalid API key (the format check is prefix and length only)', async (label, make) => {
    const forged = make();
    expect(forged).toHaveLength(37);
    if (label.startsWith('upper') && forged === key) return; // a key of digits only has no case
    expectError(await me(forged), 401, 'Invalid API key');
  });

  it('unknown key: well-formed keys never issued (random, all zeros, the real key with one digit changed) get 401 Invalid API key', async () => {
    const changed = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    for (const forged of [`pcls_${hex32()}`, `pcls_${'0'.repeat(32)}`, changed]) expectError(await me(forged), 401, 'Invalid API key');
  });

  it('unknown key sharing the real key\'s 13-character lookup prefix: 401 Invalid API key (the hash decides, not the prefix)', async () => {
    const samePrefix = `${key.slice(0, 13)}${randomBytes(12).toString('hex')}`;
    expect(samePrefix.slice(0, 13)).toBe(key.slice(0, 13));
    expectError(await me(samePrefix), 401, 'Invalid API key');
  });
});

/** Revoked through DELETE /api-keys/:id, after the key has been used (so this instance holds it in memory). */
function describeRevokedKey(name: string, open: () => Promise<DatabaseApp>): void {
  describe(`abuse: revoked API key (${name})`, () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await open();
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    it('revoked key: a key that worked is refused with 401 Invalid API key once revoked, even beside a valid bearer token', async () => {
      const owner = await signupOwner(ctx.app, 'Revoked Key');
      const res = await request(ctx.app).post(`${AUTH}/api-keys`).set(bearer(owner));
      expect(res.status).toBe(201);
      const { api_key: apiKey, prefix, id } = res.body as { api_key: string; prefix: string; id: string };
      await request(ctx.app).get(`${AUTH}/me`).set('x-api-key', apiKey).expect(200);

      await request(ctx.app).delete(`${AUTH}/api-keys/${id}`).set(bearer(owner)).expect(200);

      expectError(await request(ctx.app).get(`${AUTH}/me`).set('x-api-key', apiKey), 401, 'Invalid API key');
      expectError(await request(ctx.app).post(`${AUTH}/api-keys`).set('x-api-key', apiKey).set(bearer(owner)), 401, 'Invalid API key');
      const rows = await ctx.db.selectFrom('api_keys').select('revoked').where('key_prefix', '=', prefix).execute();
      expect(rows).toEqual([{ revoked: true }]); // still there, still revoked: nothing un-revoked it
    });
  });
}

describeRevokedKey('PGlite', () => databaseApp('pglite'));
describeIfPostgres('abuse: revoked API key on Postgres', (url) => describeRevokedKey('Postgres', () => databaseApp({ postgres: url })));
