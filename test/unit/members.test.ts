import { randomUUID } from 'node:crypto';
import {
  EmailAlreadyRegistered, InsufficientRole, InvalidApiKey, InvalidCredentials, InvalidToken, LastOwner, MemberNotFound,
  OwnerRoleRequired, RoleAboveOwn,
} from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import type { InvitableRole } from '../../src/domain/role';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

interface Member {
  readonly email: string;
  readonly token: string;
  readonly principal: Principal;
}

async function team() {
  const built = await buildTestUseCases();
  const { useCases } = built;
  const bearer = (token: string) => useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${token}` });
  const asMember = async (email: string, token: string): Promise<Member> => ({ email, token, principal: await bearer(token) });

  const ownerEmail = uniqueEmail('owner');
  const signup = await useCases.signup.execute({ email: ownerEmail, password: PASSWORD, tenantName: 'Team' });
  const owner = await asMember(ownerEmail, signup.token);
  const join = async (role: InvitableRole): Promise<Member> => {
    const email = uniqueEmail(role);
    const invite = await useCases.inviteUser.execute(owner.principal, { email, role });
    const joined = await useCases.signup.execute({ email, password: PASSWORD, inviteToken: invite.inviteToken });
    return asMember(email, joined.token);
  };
  /** A second owner: an admin promoted by the owner, logged in again (the promotion ended the old token). */
  const secondOwner = async (): Promise<Member> => {
    const admin = await join('admin');
    await useCases.changeMemberRole.execute(owner.principal, admin.principal.userId, 'owner');
    const login = await useCases.login.execute({ email: admin.email, password: PASSWORD });
    return asMember(admin.email, login.token);
  };
  return { ...built, owner, join, secondOwner, bearer };
}

describe('ListMembers', () => {
  it("lists the tenant's members, oldest first, for admins and owners only", async () => {
    const { useCases, owner, join } = await team();
    const admin = await join('admin');
    const viewer = await join('viewer');
    await team(); // another tenant, whose members must not show

    const members = await useCases.listMembers.execute(admin.principal);
    expect(members).toEqual([
      { id: owner.principal.userId, email: owner.email, role: 'owner', createdAt: expect.any(Date) },
      { id: admin.principal.userId, email: admin.email, role: 'admin', createdAt: expect.any(Date) },
      { id: viewer.principal.userId, email: viewer.email, role: 'viewer', createdAt: expect.any(Date) },
    ]);
    await expect(useCases.listMembers.execute(viewer.principal)).rejects.toEqual(new InsufficientRole('admin'));
  });
});

describe('ChangeMemberRole', () => {
  it('changes the role; the old token is refused, a new login carries the new role', async () => {
    const { useCases, owner, join, bearer } = await team();
    const member = await join('member');

    const changed = await useCases.changeMemberRole.execute(owner.principal, member.principal.userId, 'admin');
    expect(changed).toMatchObject({ id: member.principal.userId, role: 'admin' });
    await expect(bearer(member.token)).rejects.toBeInstanceOf(InvalidToken);
    const login = await useCases.login.execute({ email: member.email, password: PASSWORD });
    await expect(bearer(login.token)).resolves.toMatchObject({ role: 'admin' });
  });

  it('nobody grants a role above their own', async () => {
    const { useCases, join } = await team();
    const admin = await join('admin');
    const member = await join('member');
    await expect(useCases.changeMemberRole.execute(admin.principal, member.principal.userId, 'owner')).rejects.toBeInstanceOf(RoleAboveOwn);
    await expect(useCases.changeMemberRole.execute(admin.principal, member.principal.userId, 'admin')).resolves.toMatchObject({ role: 'admin' });
  });

  it('only an owner changes an owner or grants owner', async () => {
    const { useCases, owner, join } = await team();
    const admin = await join('admin');
    const member = await join('member');
    await expect(useCases.changeMemberRole.execute(admin.principal, owner.principal.userId, 'admin')).rejects.toBeInstanceOf(OwnerRoleRequired);
    await expect(useCases.changeMemberRole.execute(owner.principal, member.principal.userId, 'owner')).resolves.toMatchObject({ role: 'owner' });
  });

  it('the last owner cannot be demoted, not even by themselves; with a second owner they can step down', async () => {
    const { useCases, owner, secondOwner } = await team();
    await expect(useCases.changeMemberRole.execute(owner.principal, owner.principal.userId, 'admin')).rejects.toBeInstanceOf(LastOwner);

    const other = await secondOwner();
    await expect(useCases.changeMemberRole.execute(owner.principal, owner.principal.userId, 'admin')).resolves.toMatchObject({ role: 'admin' });
    await expect(useCases.changeMemberRole.execute(other.principal, other.principal.userId, 'member')).rejects.toBeInstanceOf(LastOwner);
  });

  it("answers another tenant's, unknown and malformed ids with MemberNotFound", async () => {
    const { useCases, owner } = await team();
    const other = await team();
    for (const id of [other.owner.principal.userId, randomUUID(), 'not-a-uuid']) {
      await expect(useCases.changeMemberRole.execute(owner.principal, id, 'viewer')).rejects.toBeInstanceOf(MemberNotFound);
    }
    await expect(other.bearer(other.owner.token)).resolves.toMatchObject({ role: 'owner' });
  });

  it("decides on the caller's role as stored now, not as the request's credential said", async () => {
    const { useCases, owner, secondOwner } = await team();
    const other = await secondOwner();
    await useCases.changeMemberRole.execute(other.principal, owner.principal.userId, 'admin');
    // The first owner's request was authenticated as owner just before the demotion committed.
    await expect(useCases.changeMemberRole.execute(owner.principal, other.principal.userId, 'admin')).rejects.toBeInstanceOf(OwnerRoleRequired);
  });

  it('setting the role a member already has changes nothing and keeps their token', async () => {
    const { useCases, owner, join, bearer } = await team();
    const member = await join('member');
    await expect(useCases.changeMemberRole.execute(owner.principal, member.principal.userId, 'member')).resolves.toMatchObject({ role: 'member' });
    await expect(bearer(member.token)).resolves.toMatchObject({ role: 'member' });
  });
});

describe('RemoveMember', () => {
  it("ends the member's tokens and keys at once and leaves them out of the list", async () => {
    const { useCases, owner, join, bearer } = await team();
    const admin = await join('admin');
    const key = await useCases.createApiKey.execute(admin.principal);
    await expect(useCases.authenticate.execute({ apiKey: key.apiKey, authorization: undefined })).resolves.toMatchObject({ role: 'admin' });

    await useCases.removeMember.execute(owner.principal, admin.principal.userId);

    await expect(bearer(admin.token)).rejects.toBeInstanceOf(InvalidToken);
    await expect(useCases.authenticate.execute({ apiKey: key.apiKey, authorization: undefined })).rejects.toBeInstanceOf(InvalidApiKey);
    await expect(useCases.login.execute({ email: admin.email, password: PASSWORD })).rejects.toBeInstanceOf(InvalidCredentials);
    expect((await useCases.listMembers.execute(owner.principal)).map((m) => m.id)).toEqual([owner.principal.userId]);
    expect((await useCases.listApiKeys.execute(owner.principal)).map((k) => k.revoked)).toEqual([true]);
    await expect(useCases.removeMember.execute(owner.principal, admin.principal.userId)).rejects.toBeInstanceOf(MemberNotFound);
  });

  it('frees the e-mail address: the removed person can sign up again', async () => {
    const { useCases, owner, join } = await team();
    const member = await join('member');
    await expect(useCases.signup.execute({ email: member.email, password: PASSWORD, tenantName: 'Again' })).rejects.toBeInstanceOf(EmailAlreadyRegistered);
    await useCases.removeMember.execute(owner.principal, member.principal.userId);
    await expect(useCases.signup.execute({ email: member.email, password: PASSWORD, tenantName: 'Again' })).resolves.toHaveProperty('token');
  });

  it('only an owner removes an owner, never the last one; anyone may leave but the last owner', async () => {
    const { useCases, owner, join, secondOwner } = await team();
    const admin = await join('admin');
    await expect(useCases.removeMember.execute(admin.principal, owner.principal.userId)).rejects.toBeInstanceOf(OwnerRoleRequired);
    await expect(useCases.removeMember.execute(owner.principal, owner.principal.userId)).rejects.toBeInstanceOf(LastOwner);

    const other = await secondOwner();
    await useCases.removeMember.execute(other.principal, owner.principal.userId);
    await useCases.removeMember.execute(admin.principal, admin.principal.userId);
    expect((await useCases.listMembers.execute(other.principal)).map((m) => m.id)).toEqual([other.principal.userId]);
  });

  it("answers another tenant's, unknown and malformed ids with MemberNotFound; members and viewers may not remove", async () => {
    const { useCases, owner, join } = await team();
    const other = await team();
    const member = await join('member');
    for (const id of [other.owner.principal.userId, randomUUID(), 'not-a-uuid']) {
      await expect(useCases.removeMember.execute(owner.principal, id)).rejects.toBeInstanceOf(MemberNotFound);
    }
    await expect(useCases.removeMember.execute(member.principal, owner.principal.userId)).rejects.toEqual(new InsufficientRole('admin'));
  });

  it('refuses a caller who was removed while their request was on its way', async () => {
    const { useCases, owner, join } = await team();
    const admin = await join('admin');
    const member = await join('member');
    await useCases.removeMember.execute(owner.principal, admin.principal.userId);
    await expect(useCases.removeMember.execute(admin.principal, member.principal.userId)).rejects.toBeInstanceOf(InvalidToken);
    await expect(useCases.changeMemberRole.execute({ ...admin.principal, method: 'api_key' }, member.principal.userId, 'viewer'))
      .rejects.toBeInstanceOf(InvalidApiKey);
  });
});
