import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import {
  CurrentPasswordIncorrect, InsufficientRole, InvalidCredentials, InvalidInviteToken, InvalidToken, OwnerKeyRequiresOwner,
} from '../../src/domain/errors';
import type { InvitableRole } from '../../src/domain/role';
import { buildTestUseCases, FAST_SCRYPT, uniqueEmail } from '../support/test-use-cases';

// Races between slow work (a password hash) and a change of the member made meanwhile, and between
// the role a request was authenticated with and the role its member holds when the work writes.
// Each test holds the slow step open with a gate, makes the change, then lets the step finish.

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

/** Real scrypt, whose next hash or verify (as armed) waits until the test opens the gate. */
class GatedHasher implements PasswordHasher {
  private gate: { step: 'hash' | 'verify'; entered: () => void; open: Promise<void> } | null = null;
  constructor(private inner: PasswordHasher = new ScryptPasswordHasher(FAST_SCRYPT)) {}

  /** Hashes at other parameters from now on (stored hashes then need renewing at the next login). */
  use(inner: PasswordHasher): void {
    this.inner = inner;
  }

  /** The next `step` stops once it has started; returns when it has, and the function that lets it go on. */
  arm(step: 'hash' | 'verify'): { reached: Promise<void>; release: () => void } {
    let entered!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => { entered = resolve; });
    this.gate = { step, entered, open: new Promise<void>((resolve) => { release = resolve; }) };
    return { reached, release };
  }

  async hash(password: string): Promise<string> {
    const hash = await this.inner.hash(password);
    await this.wait('hash');
    return hash;
  }

  async verify(password: string, storedHash: string): Promise<boolean> {
    const ok = await this.inner.verify(password, storedHash);
    await this.wait('verify');
    return ok;
  }

  needsRehash(storedHash: string): boolean {
    return this.inner.needsRehash(storedHash);
  }

  private async wait(step: 'hash' | 'verify'): Promise<void> {
    const gate = this.gate;
    if (gate?.step !== step) return;
    this.gate = null;
    gate.entered();
    await gate.open;
  }
}

async function tenant(hasher = new GatedHasher()) {
  const built = await buildTestUseCases({ hasher });
  const { useCases } = built;
  const bearer = (token: string) => useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${token}` });
  const ownerEmail = uniqueEmail('owner');
  const owner = await bearer((await useCases.signup.execute({ email: ownerEmail, password: PASSWORD, tenantName: 'Races' })).token);
  const join = async (role: InvitableRole) => {
    const email = uniqueEmail(role);
    const { inviteToken } = await useCases.inviteUser.execute(owner, { email, role });
    const { token } = await useCases.signup.execute({ email, password: PASSWORD, inviteToken });
    return { email, token, principal: await bearer(token) };
  };
  return { ...built, hasher, owner, ownerEmail, join, bearer };
}

describe('a password change racing a change of the member', () => {
  it('hands back a token with the role the member holds after a demotion made while hashing', async () => {
    const { useCases, hasher, owner, join, bearer } = await tenant();
    const admin = await join('admin');

    const gate = hasher.arm('hash');
    const changing = useCases.changePassword.execute(admin.principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    await gate.reached;
    await useCases.changeMemberRole.execute(owner, admin.principal.userId, 'member');
    gate.release();
    const { token } = await changing;

    const now = await bearer(token);
    expect(now.role).toBe('member');
    await expect(useCases.inviteUser.execute(now, { email: uniqueEmail('guest'), role: 'admin' })).rejects.toBeInstanceOf(InsufficientRole);
    await expect(useCases.createApiKey.execute(now)).rejects.toBeInstanceOf(InsufficientRole);
  });

  it('refuses the change when another password was set while hashing, and keeps that one', async () => {
    const { useCases, hasher, join, bearer } = await tenant();
    const admin = await join('admin');

    const gate = hasher.arm('hash');
    const changing = useCases.changePassword.execute(admin.principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    await gate.reached;
    const other = await useCases.changePassword.execute(admin.principal, { currentPassword: PASSWORD, newPassword: 'the other new one' });
    gate.release();

    await expect(changing).rejects.toBeInstanceOf(CurrentPasswordIncorrect);
    await expect(useCases.login.execute({ email: admin.email, password: NEW_PASSWORD })).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(bearer(other.token)).resolves.toMatchObject({ role: 'admin' });
    await expect(useCases.login.execute({ email: admin.email, password: 'the other new one' })).resolves.toHaveProperty('token');
  });
});

describe('a login racing a change of the member', () => {
  it('issues a token with the role of after a demotion made while verifying, which authenticates', async () => {
    const { useCases, hasher, owner, join, bearer } = await tenant();
    const admin = await join('admin');

    const gate = hasher.arm('verify');
    const login = useCases.login.execute({ email: admin.email, password: PASSWORD });
    await gate.reached;
    await useCases.changeMemberRole.execute(owner, admin.principal.userId, 'viewer');
    gate.release();

    await expect(bearer((await login).token)).resolves.toMatchObject({ role: 'viewer' });
  });

  it('refuses the old password when it was changed while verifying', async () => {
    const { useCases, hasher, join } = await tenant();
    const admin = await join('admin');

    const gate = hasher.arm('verify');
    const login = useCases.login.execute({ email: admin.email, password: PASSWORD });
    await gate.reached;
    await useCases.changePassword.execute(admin.principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    gate.release();

    await expect(login).rejects.toBeInstanceOf(InvalidCredentials);
  });

  it('never lets the renewal of an old-parameter hash undo a password change made meanwhile', async () => {
    const hasher = new GatedHasher(new ScryptPasswordHasher({ N: 512, r: 8, p: 1 }));
    const { useCases, ownerEmail, owner } = await tenant(hasher);
    hasher.use(new ScryptPasswordHasher(FAST_SCRYPT)); // the owner's stored hash is now at older parameters

    const gate = hasher.arm('hash');
    const login = useCases.login.execute({ email: ownerEmail, password: PASSWORD });
    await gate.reached; // verified, and making the renewed hash
    await useCases.changePassword.execute(owner, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    gate.release();

    await expect(login).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(useCases.login.execute({ email: ownerEmail, password: NEW_PASSWORD })).resolves.toHaveProperty('token');
    await expect(useCases.login.execute({ email: ownerEmail, password: PASSWORD })).rejects.toBeInstanceOf(InvalidCredentials);
  });
});

describe('work done on the strength of a role taken away since the request was authenticated', () => {
  it('refuses an invite, a key and an owner key revocation once the caller was demoted or removed', async () => {
    const { useCases, owner, join } = await tenant();
    const admin = await join('admin');
    const stale = admin.principal; // authenticated as admin
    await useCases.changeMemberRole.execute(owner, admin.principal.userId, 'member');

    await expect(useCases.inviteUser.execute(stale, { email: uniqueEmail('guest'), role: 'admin' })).rejects.toBeInstanceOf(InsufficientRole);
    await expect(useCases.createApiKey.execute(stale)).rejects.toBeInstanceOf(InsufficientRole);

    const coOwner = await join('admin');
    await useCases.changeMemberRole.execute(owner, coOwner.principal.userId, 'owner');
    const staleOwner = { ...coOwner.principal, role: 'owner' }; // authenticated as owner, then demoted
    const ownersKey = await useCases.createApiKey.execute(owner);
    await useCases.changeMemberRole.execute(owner, coOwner.principal.userId, 'admin');
    await expect(useCases.revokeApiKey.execute(staleOwner, ownersKey.id)).rejects.toBeInstanceOf(OwnerKeyRequiresOwner);

    await useCases.removeMember.execute(owner, coOwner.principal.userId);
    await expect(useCases.inviteUser.execute(staleOwner, { email: uniqueEmail('guest') })).rejects.toBeInstanceOf(InvalidToken);
  });
});

describe('invites outlive no change of their sender', () => {
  it('a demotion revokes the pending invites above the new role, which can then not be accepted', async () => {
    const { useCases, owner, join } = await tenant();
    const admin = await join('admin');
    const asAdmin = await useCases.inviteUser.execute(admin.principal, { email: uniqueEmail('a'), role: 'admin' });
    const asMember = await useCases.inviteUser.execute(admin.principal, { email: uniqueEmail('m'), role: 'member' });
    const byOwner = await useCases.inviteUser.execute(owner, { email: uniqueEmail('o'), role: 'admin' });

    await useCases.changeMemberRole.execute(owner, admin.principal.userId, 'member');

    await expect(useCases.signup.execute({ email: uniqueEmail('late'), password: PASSWORD, inviteToken: asAdmin.inviteToken }))
      .rejects.toBeInstanceOf(InvalidInviteToken);
    await expect(useCases.signup.execute({ email: uniqueEmail('m'), password: PASSWORD, inviteToken: asMember.inviteToken }))
      .resolves.toHaveProperty('token');
    await expect(useCases.signup.execute({ email: uniqueEmail('o'), password: PASSWORD, inviteToken: byOwner.inviteToken }))
      .resolves.toHaveProperty('token');
  });

  it("a removal revokes every pending invite of the member, and the trail records each", async () => {
    const { useCases, owner, join } = await tenant();
    const admin = await join('admin');
    const invites = await Promise.all((['admin', 'member', 'viewer'] as const).map((role) =>
      useCases.inviteUser.execute(admin.principal, { email: uniqueEmail(role), role })));

    await useCases.removeMember.execute(owner, admin.principal.userId);

    for (const { inviteToken } of invites) {
      await expect(useCases.signup.execute({ email: uniqueEmail('late'), password: PASSWORD, inviteToken }))
        .rejects.toBeInstanceOf(InvalidInviteToken);
    }
    expect(await useCases.listInvites.execute(owner)).toEqual([]);
    const { events } = await useCases.listAuditEvents.execute(owner, { action: 'invite.revoked', limit: 50 });
    expect(events).toHaveLength(3);
    for (const event of events) expect(event).toMatchObject({ actorUserId: owner.userId, details: { reason: 'inviter_removed' } });
    const [removal] = (await useCases.listAuditEvents.execute(owner, { action: 'member.removed', limit: 50 })).events;
    expect(removal?.details).toMatchObject({ invites_revoked: 3 });
  });
});
