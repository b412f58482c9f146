import {
  EmailAlreadyRegistered, InvalidInviteToken, InviteAlreadyAccepted, InviteExpired, TenantNameRequired,
} from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

function principalOf(claims: { tenantId: string; userId: string; role: string }): Principal {
  return { ...claims, method: 'jwt' };
}

describe('Signup', () => {
  it('creates a tenant with a slug and makes the first user its owner', async () => {
    const { useCases, storage, services } = await buildTestUseCases();
    const email = uniqueEmail();
    const result = await useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Acme Corp' });

    expect(result.expiresIn).toBe('24h');
    const claims = services.tokens.verify(result.token);
    expect(claims).toMatchObject({ tenantId: result.tenantId, email, role: 'owner' });
    const tenant = await storage.repos.tenants.findById(result.tenantId);
    expect(tenant?.name).toBe('Acme Corp');
    expect(tenant?.slug).toMatch(/^acme-corp-[0-9a-f]{6}$/);
  });

  it('stores the e-mail normalised and only a salted scrypt hash of the password', async () => {
    const { useCases, storage } = await buildTestUseCases();
    const email = uniqueEmail();
    await useCases.signup.execute({ email: `  ${email.toUpperCase()} `, password: PASSWORD, tenantName: 'T' });
    const user = await storage.repos.users.findByEmail(email);
    expect(user?.email).toBe(email);
    expect(user?.passwordHash).toMatch(/^scrypt\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
  });

  it('refuses an e-mail that is already registered, whatever its case', async () => {
    const { useCases } = await buildTestUseCases();
    const email = uniqueEmail();
    await useCases.signup.execute({ email, password: PASSWORD, tenantName: 'First' });
    await expect(useCases.signup.execute({ email: email.toUpperCase(), password: PASSWORD, tenantName: 'Second' }))
      .rejects.toBeInstanceOf(EmailAlreadyRegistered);
  });

  it('needs a tenant name when there is no invite token', async () => {
    const { useCases } = await buildTestUseCases();
    await expect(useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD }))
      .rejects.toBeInstanceOf(TenantNameRequired);
  });

  describe('by invitation', () => {
    async function withInvite(role?: 'admin' | 'member' | 'viewer') {
      const clock = new TestClock();
      const built = await buildTestUseCases({ clock, inviteTtlSeconds: 3600 });
      const owner = await built.useCases.signup.execute({ email: uniqueEmail('owner'), password: PASSWORD, tenantName: 'Team' });
      const ownerClaims = built.services.tokens.verify(owner.token)!;
      const invite = await built.useCases.inviteUser.execute(principalOf(ownerClaims), { email: uniqueEmail('invitee'), role });
      return { ...built, clock, owner, ownerClaims, invite };
    }

    it("joins the invite's tenant with the invite's role and consumes the invite", async () => {
      const { useCases, services, owner, ownerClaims, invite, storage } = await withInvite('viewer');
      const joined = await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken });
      expect(joined.tenantId).toBe(owner.tenantId);
      expect(services.tokens.verify(joined.token)?.role).toBe('viewer');
      const stored = await storage.repos.invites.findByToken(invite.inviteToken);
      expect(stored?.acceptedAt).toBeInstanceOf(Date);
      expect(await useCases.listInvites.execute(principalOf(ownerClaims))).toEqual([]);
    });

    it('takes the invite path even when a tenant name is also given', async () => {
      const { useCases, owner, invite } = await withInvite();
      const joined = await useCases.signup.execute({
        email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken, tenantName: 'Ignored',
      });
      expect(joined.tenantId).toBe(owner.tenantId);
    });

    it('gives member when the invite named no role', async () => {
      const { useCases, services, invite } = await withInvite();
      const joined = await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken });
      expect(services.tokens.verify(joined.token)?.role).toBe('member');
    });

    it('refuses an unknown or malformed token', async () => {
      const { useCases } = await withInvite();
      await expect(useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: 'f'.repeat(64) }))
        .rejects.toBeInstanceOf(InvalidInviteToken);
      await expect(useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: 'nope' }))
        .rejects.toBeInstanceOf(InvalidInviteToken);
    });

    it('refuses an invite that was already used', async () => {
      const { useCases, invite } = await withInvite();
      await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken });
      await expect(useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: invite.inviteToken }))
        .rejects.toBeInstanceOf(InviteAlreadyAccepted);
    });

    it('refuses an expired invite and keeps no user', async () => {
      const { useCases, clock, invite, storage } = await withInvite();
      clock.advance({ seconds: 3600 });
      const email = uniqueEmail();
      await expect(useCases.signup.execute({ email, password: PASSWORD, inviteToken: invite.inviteToken }))
        .rejects.toBeInstanceOf(InviteExpired);
      expect(await storage.repos.users.findByEmail(email)).toBeNull();
    });

    it('keeps the invite unaccepted when the user cannot be created', async () => {
      const { useCases, invite, storage, owner } = await withInvite();
      // Race the pre-check: the e-mail is registered between the check and the transaction.
      const email = uniqueEmail();
      const original = storage.repos.users.findByEmail.bind(storage.repos.users);
      storage.repos.users.findByEmail = async () => null;
      await useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Elsewhere' });
      await expect(useCases.signup.execute({ email, password: PASSWORD, inviteToken: invite.inviteToken }))
        .rejects.toBeInstanceOf(EmailAlreadyRegistered);
      storage.repos.users.findByEmail = original;
      const stored = await storage.repos.invites.findByToken(invite.inviteToken);
      expect(stored?.acceptedAt).toBeNull();
      expect(owner.tenantId).toBe(stored?.tenantId);
    });
  });
});
