import { InviteNotFound } from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

async function twoTenants() {
  const clock = new TestClock();
  const built = await buildTestUseCases({ clock, inviteTtlSeconds: 600 });
  const ownerOf = async (name: string): Promise<Principal> => {
    const { token } = await built.useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, tenantName: name });
    const c = built.services.tokens.verify(token)!;
    return { tenantId: c.tenantId, userId: c.userId, role: c.role, method: 'jwt' };
  };
  return { ...built, clock, a: await ownerOf('A'), b: await ownerOf('B') };
}

describe('Invites', () => {
  it('creates an invite that expires after the configured lifetime, e-mail normalised', async () => {
    const { useCases, a, clock, storage } = await twoTenants();
    const created = await useCases.inviteUser.execute(a, { email: ' New@Example.com ', role: 'admin' });
    expect(created.inviteToken).toMatch(/^[0-9a-f]{64}$/);
    expect(created.expiresAt.getTime()).toBe(clock.now().getTime() + 600_000);
    const stored = await storage.repos.invites.findByToken(created.inviteToken);
    expect(stored).toMatchObject({ tenantId: a.tenantId, invitedBy: a.userId, email: 'new@example.com', role: 'admin' });
  });

  it("lists only the caller's pending invites, newest first, without tokens", async () => {
    const { useCases, a, b, clock } = await twoTenants();
    const old = await useCases.inviteUser.execute(a, { email: uniqueEmail('old') });
    clock.advance({ seconds: 300 });
    await useCases.inviteUser.execute(a, { email: uniqueEmail('newer') });
    clock.advance({ seconds: 1 });
    const accepted = await useCases.inviteUser.execute(a, { email: uniqueEmail('accepted') });
    await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: accepted.inviteToken });
    await useCases.inviteUser.execute(b, { email: uniqueEmail('other-tenant') });

    let listed = await useCases.listInvites.execute(a);
    expect(listed.map((i) => i.email)).toEqual([expect.stringMatching(/^newer-/), expect.stringMatching(/^old-/)]);
    expect(listed[0]).not.toHaveProperty('token');

    clock.advance({ seconds: 300 }); // the first one reaches its expiry
    listed = await useCases.listInvites.execute(a);
    expect(listed.map((i) => i.email)).toEqual([expect.stringMatching(/^newer-/)]);
    expect(old.expiresAt.getTime()).toBeLessThanOrEqual(clock.now().getTime());
  });

  it('revokes pending and expired invites of the tenant, and nothing else', async () => {
    const { useCases, a, b, clock, storage } = await twoTenants();
    const pending = await useCases.inviteUser.execute(a, { email: uniqueEmail() });
    const expiring = await useCases.inviteUser.execute(a, { email: uniqueEmail() });
    const others = await useCases.inviteUser.execute(b, { email: uniqueEmail() });
    const accepted = await useCases.inviteUser.execute(a, { email: uniqueEmail() });
    await useCases.signup.execute({ email: uniqueEmail(), password: PASSWORD, inviteToken: accepted.inviteToken });
    const idOf = async (token: string) => (await storage.repos.invites.findByToken(token))!.id;

    await useCases.revokeInvite.execute(a, (await idOf(pending.inviteToken)).toUpperCase());
    expect(await storage.repos.invites.findByToken(pending.inviteToken)).toBeNull();

    clock.advance({ seconds: 601 });
    await expect(useCases.revokeInvite.execute(a, await idOf(expiring.inviteToken))).resolves.toBeUndefined();

    await expect(useCases.revokeInvite.execute(a, await idOf(others.inviteToken))).rejects.toBeInstanceOf(InviteNotFound);
    expect(await storage.repos.invites.findByToken(others.inviteToken)).not.toBeNull();
    await expect(useCases.revokeInvite.execute(a, await idOf(accepted.inviteToken))).rejects.toBeInstanceOf(InviteNotFound);
    expect(await storage.repos.invites.findByToken(accepted.inviteToken)).not.toBeNull();
    await expect(useCases.revokeInvite.execute(a, 'not-a-uuid')).rejects.toBeInstanceOf(InviteNotFound);
    await expect(useCases.revokeInvite.execute(a, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(InviteNotFound);
  });
});
