import type { RequestListener } from 'node:http';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { type Account, AUTH, bearer, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { FAST_SCRYPT, uniqueEmail } from '../support/test-use-cases';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';

const TOO_COMMON = 'Password is too common';
const CONTAINS_EMAIL = 'Password must not contain your email address';
const CONTAINS_TENANT = 'Password must not contain the organisation name';

/** On the shipped list (it ships with the service: these tests read the real one), and 8+ characters. */
const COMMON = 'Password1';

/** Real scrypt that counts its hashes: the policy must refuse before the costly hash. */
class CountingHasher implements PasswordHasher {
  hashes = 0;
  private readonly inner = new ScryptPasswordHasher(FAST_SCRYPT);
  async hash(password: string): Promise<string> { this.hashes += 1; return this.inner.hash(password); }
  verify(password: string, storedHash: string): Promise<boolean> { return this.inner.verify(password, storedHash); }
  needsRehash(storedHash: string): boolean { return this.inner.needsRehash(storedHash); }
}

async function strictApp() {
  const hasher = new CountingHasher();
  const built = await buildTestApp({}, { passwordPolicy: 'strict', hasher });
  return { ...built, hasher };
}

async function loginStatus(app: RequestListener, email: string, password: string): Promise<number> {
  return (await request(app).post(`${AUTH}/login`).send({ email, password })).status;
}

async function changePassword(app: RequestListener, account: Account, newPassword: string, current = PASSWORD) {
  return request(app).post(`${AUTH}/password`).set(bearer(account)).send({ current_password: current, new_password: newPassword });
}

describe('PASSWORD_POLICY=strict', () => {
  describe('signup of a new tenant', () => {
    it.each([
      ['V6.2.4, V6.2.12: a password on the common list, in any case', () => COMMON.toUpperCase(), 'Foundry Works', TOO_COMMON],
      ['V6.2.11: a password containing the address', (email: string) => `${email.split('@')[0]}!`, 'Foundry Works', CONTAINS_EMAIL],
      ['V6.2.11: a password containing the new tenant\'s name', () => 'the foundry never sleeps', 'Foundry Works', CONTAINS_TENANT],
    ])('refuses %s with 400, before hashing it, and stores nothing', async (_case, password, tenantName, message) => {
      const { app, storage, hasher } = await strictApp();
      const email = uniqueEmail('margaret');
      const hashesBefore = hasher.hashes;
      const res = await request(app).post(`${AUTH}/signup`).send({ email, password: password(email), tenant_name: tenantName });
      expectError(res, 400, message);
      expect(hasher.hashes).toBe(hashesBefore);
      await expect(storage.repos.users.findByEmail(email)).resolves.toBeNull();
      expect(await loginStatus(app, email, password(email))).toBe(401);
    });

    it('accepts a good password, which then signs in', async () => {
      const { app } = await strictApp();
      const email = uniqueEmail('margaret');
      const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Foundry Works' });
      expect(res.status).toBe(201);
      expect(await loginStatus(app, email, PASSWORD)).toBe(200);
    });
  });

  describe('signup by invitation', () => {
    it.each([
      ['V6.2.4, V6.2.12: a password on the common list', () => COMMON, TOO_COMMON],
      ['V6.2.11: a password containing the address', (email: string) => `I am ${email}`, CONTAINS_EMAIL],
      ['V6.2.11: a password containing the inviting tenant\'s name', () => 'glassworks forever', CONTAINS_TENANT],
    ])('refuses %s with 400, and the invite stays unused', async (_case, password, message) => {
      const { app, storage } = await strictApp();
      const owner = await signupOwner(app, 'Glassworks Guild');
      const invite = await createInvite(app, owner);
      const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: password(invite.email), invite_token: invite.token });
      expectError(res, 400, message);
      await expect(storage.repos.users.findByEmail(invite.email)).resolves.toBeNull();
      const pending = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
      expect(pending.body.invites).toHaveLength(1);

      const joined = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
      expect(joined.status).toBe(201);
      expect(joined.body.tenant_id).toBe(owner.tenantId);
    });

    it('answers a token that matches no invite as always, whatever the password', async () => {
      const { app } = await strictApp();
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, invite_token: 'f'.repeat(64) });
      expectError(res, 400, 'Invalid invite token');
    });
  });

  describe('password change', () => {
    it.each([
      ['V6.2.4, V6.2.12: a password on the common list', () => COMMON, TOO_COMMON],
      ['V6.2.11: a password containing the address', (email: string) => email.toUpperCase(), CONTAINS_EMAIL],
      ['V6.2.11: a password containing the tenant\'s name', () => 'Ropewalk & Sons 2024', CONTAINS_TENANT],
    ])('refuses %s with 400, before hashing it; the old password and session still work', async (_case, password, message) => {
      const { app, hasher } = await strictApp();
      const owner = await signupOwner(app, 'Ropewalk');
      const hashesBefore = hasher.hashes;
      expectError(await changePassword(app, owner, password(owner.email)), 400, message);
      expect(hasher.hashes).toBe(hashesBefore);
      expect(await loginStatus(app, owner.email, PASSWORD)).toBe(200);
      expect((await request(app).get(`${AUTH}/me`).set(bearer(owner))).status).toBe(200);
    });

    it('asks for the current password first: a wrong one is 403 whatever the new one is', async () => {
      const { app } = await strictApp();
      const owner = await signupOwner(app, 'Ropewalk');
      expectError(await changePassword(app, owner, COMMON, 'not my password'), 403, 'Current password is incorrect');
    });

    it('accepts a good password, which then signs in', async () => {
      const { app } = await strictApp();
      const owner = await signupOwner(app, 'Ropewalk');
      expect((await changePassword(app, owner, 'plum orchard at noon')).status).toBe(200);
      expect(await loginStatus(app, owner.email, 'plum orchard at noon')).toBe(200);
    });
  });
});

describe('PASSWORD_POLICY=strict at a password reset', () => {
  async function resetLink(t: Awaited<ReturnType<typeof strictApp>>, email: string): Promise<string> {
    expect((await request(t.app).post(`${AUTH}/password/forgot`).send({ email })).status).toBe(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
    const text = (t.assembly.mailer as DevelopmentMailbox).latestTo(email)!.text;
    return /reset-password\?token=([0-9a-f]{64})/.exec(text)![1]!;
  }

  it.each([
    ['V6.2.4: a password on the common list', () => COMMON, TOO_COMMON],
    ['V6.2.11: a password containing the address', (email: string) => `x${email}`, CONTAINS_EMAIL],
    ['V6.2.11: a password containing the tenant\'s name', () => 'Ropewalk forever', CONTAINS_TENANT],
  ])('refuses %s with 400, before hashing it; the link still works for a better one', async (_case, password, message) => {
    const t = await strictApp();
    const owner = await signupOwner(t.app, 'Ropewalk');
    const token = await resetLink(t, owner.email);
    const hashesBefore = t.hasher.hashes;
    expectError(await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: password(owner.email) }), 400, message);
    expect(t.hasher.hashes).toBe(hashesBefore);
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'plum orchard at noon' })).status).toBe(200);
    expect(await loginStatus(t.app, owner.email, 'plum orchard at noon')).toBe(200);
  });
});

describe('PASSWORD_POLICY=default (unset): the contract\'s rule only, at least 8 characters', () => {
  it('accepts a common password, and one containing the address or the tenant\'s name, at signup', async () => {
    const { app } = await buildTestApp();
    for (const [password, tenantName] of [[COMMON, 'Foundry Works'], ['foundry works forever', 'Foundry Works']] as const) {
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password, tenant_name: tenantName });
      expect(res.status).toBe(201);
    }
    const email = uniqueEmail('margaret');
    expect((await request(app).post(`${AUTH}/signup`).send({ email, password: email, tenant_name: 'X' })).status).toBe(201);
  });

  it('accepts a common password by invitation and at a password change', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app, 'Glassworks Guild');
    const invite = await createInvite(app, owner);
    expect((await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: COMMON, invite_token: invite.token })).status).toBe(201);
    expect((await changePassword(app, owner, 'glassworks forever')).status).toBe(200);
    expect(await loginStatus(app, owner.email, 'glassworks forever')).toBe(200);
  });

  it('still refuses fewer than 8 characters, as the contract says', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: 'short', tenant_name: 'X' });
    expect(res.status).toBe(400);
  });
});
