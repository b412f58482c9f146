import { randomBytes } from 'node:crypto';
import { InvalidToken } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { InvitableRole, Role } from '../domain/role';
import type { UseCases } from '../application/use-cases';
import type { Duration, TestClock } from './test-clock';
import { KitFactors, type PasskeyOptions, type SignInFactor, type TestPasskey, type TestTotp } from './kit-factors';

/** Headers for a bearer token, ready for `request(app).get(...).set(headers)` (a type, not an interface, so it fits a headers record). */
export type BearerHeaders = {
  readonly authorization: string;
};

/** Headers for an API key. */
export type ApiKeyHeaders = {
  readonly 'x-api-key': string;
};

/** A user of a tenant, signed in: what a test needs to call the service as them. */
export interface TestMember {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly role: Role;
  /** A bearer token issued at login (or signup). */
  readonly token: string;
  readonly headers: BearerHeaders;
  /** The session that token belongs to (its `sid`): what `logout` ends, and what introspection names. */
  readonly sessionId: string;
  /** How that token's sign-in authenticated: `["pwd"]`, `["pwd", "otp", "mfa"]`, `["passkey", "mfa"]`, ... */
  readonly amr: readonly string[];
  /** The authenticator app the kit enrolled for the member (enrollTotp, memberWithTotp). */
  readonly totp?: TestTotp;
  /** The passkey the kit registered for the member (enrollPasskey, memberWithPasskey). */
  readonly passkey?: TestPasskey;
}

export interface LoginOptions {
  /** How to sign in; by default with the factor the kit enrolled (the app first), else the password alone. */
  readonly factor?: SignInFactor;
}

/** A tenant made by signup, with its owner. */
export interface TestTenant {
  readonly tenantId: string;
  readonly name: string;
  readonly owner: TestMember;
}

export interface TestApiKey {
  readonly id: string;
  /** The raw key, as the service showed it once. */
  readonly apiKey: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly expiresAt: Date | null;
  /** Whose key it is: a request with it acts as this member, with their current role. */
  readonly owner: TestMember;
  readonly headers: ApiKeyHeaders;
}

export interface TestInvite {
  readonly tenantId: string;
  readonly email: string;
  readonly role: InvitableRole;
  /** The raw token, as the inviter receives it: what POST /signup takes as `invite_token`. */
  readonly inviteToken: string;
  readonly expiresAt: Date;
}

export interface TenantOptions {
  readonly name?: string;
  readonly email?: string;
  readonly password?: string;
}

export interface MemberOptions {
  readonly email?: string;
  readonly password?: string;
}

export interface InviteOptions {
  readonly role?: InvitableRole;
  readonly email?: string;
  /** Who invites: an admin or the owner of the tenant; the owner when unset. */
  readonly by?: TestMember;
}

export interface ApiKeyOptions {
  readonly name?: string;
  readonly expiresInDays?: number;
}

/** Mutable on the inside: when the kit renews a member's token, the object the test holds follows. */
type MemberRecord = { -readonly [K in keyof TestMember]: TestMember[K] };

export const TEST_PASSWORD = 'correct horse battery staple';

let emails = 0;
const run = randomBytes(3).toString('hex');

/** A fresh address per call: e-mail addresses are unique across every tenant. */
export function testEmail(label = 'user'): string {
  emails += 1;
  return `${label}-${run}-${emails}@example.test`;
}

function bearerHeaders(token: string): BearerHeaders {
  return { authorization: `Bearer ${token}` };
}

/**
 * Arranges a world through the service's own use-cases (signup, invite, login, keys, removal),
 * never through hand-made rows or tokens: what a helper returns is a state the contract can reach,
 * and the service answers it exactly as it would in production.
 */
export class TestWorld {
  /** Each tenant's owner, who acts for the kit (invites, role changes, revocations, removals). */
  private readonly owners = new Map<string, TestMember>();
  /**
   * The token each owner acts for the kit with: at first the one the test holds too; a session of
   * the kit's own once the test has ended that one (logout, endSessions), so the kit goes on acting.
   */
  private readonly actingTokens = new Map<string, string>();
  private readonly factors: KitFactors;

  /** `origin`: where the service's people reach it (PUBLIC_URL), which passkeys are bound to. */
  constructor(private readonly useCases: UseCases, readonly clock: TestClock, origin = 'http://localhost:3000') {
    this.factors = new KitFactors(useCases, clock, origin);
  }

  /** A new tenant with its owner (POST /signup without an invite). */
  async tenant(options: TenantOptions = {}): Promise<TestTenant> {
    const name = options.name ?? 'Acme';
    const email = options.email ?? testEmail('owner');
    const password = options.password ?? TEST_PASSWORD;
    const signedUp = await this.useCases.signup.execute({ email, password, tenantName: name });
    const owner = await this.memberFrom(email, password, signedUp.token);
    this.owners.set(signedUp.tenantId, owner);
    return { tenantId: signedUp.tenantId, name, owner };
  }

  /** An invite of the tenant (POST /invite), by its owner unless `by` is given; nobody has accepted it. */
  async invite(tenant: TestTenant, options: InviteOptions = {}): Promise<TestInvite> {
    const role = options.role ?? 'member';
    const email = options.email ?? testEmail(role);
    const inviter = options.by ? await this.principalOf(options.by) : await this.ownerOf(tenant.owner);
    const created = await this.useCases.inviteUser.execute(inviter, { email, role });
    return { tenantId: tenant.tenantId, email, role, inviteToken: created.inviteToken, expiresAt: created.expiresAt };
  }

  /** Signs up through the invite (POST /signup with `invite_token`): the invitee becomes a member. */
  async acceptInvite(invite: TestInvite, options: Pick<MemberOptions, 'password'> = {}): Promise<TestMember> {
    const password = options.password ?? TEST_PASSWORD;
    const signedUp = await this.useCases.signup.execute({ email: invite.email, password, inviteToken: invite.inviteToken });
    return this.memberFrom(invite.email, password, signedUp.token);
  }

  /** A member of the tenant with the role given, invited by the owner and signed up. `owner` is the tenant's owner. */
  async member(tenant: TestTenant, role: Role = 'member', options: MemberOptions = {}): Promise<TestMember> {
    if (role === 'owner') return tenant.owner;
    return this.acceptInvite(await this.invite(tenant, { role, email: options.email }), options);
  }

  /** One member of each role, the owner included. */
  async team(tenant: TestTenant): Promise<Record<Role, TestMember>> {
    return {
      owner: tenant.owner,
      admin: await this.member(tenant, 'admin'),
      member: await this.member(tenant, 'member'),
      viewer: await this.member(tenant, 'viewer'),
    };
  }

  /**
   * A fresh bearer token for the member, of a new session; the object given is updated too. POST
   * /login; for a member with an authenticator app the kit enrolled, then POST /login/mfa with the
   * app's current code (the kit's clock moves to the next 30-second step when the kit already gave
   * the current one: a code is accepted once); for a member whose only factor the kit made is a
   * passkey, POST /login/passkey with it instead. `factor` chooses (`password`, `totp`,
   * `recovery_code`, `passkey`).
   */
  async login(member: TestMember, options: LoginOptions = {}): Promise<TestMember> {
    const token = await this.factors.signIn(member, options.factor);
    const principal = await this.authenticated(token);
    const record = member as MemberRecord;
    record.token = token;
    record.headers = bearerHeaders(token);
    record.sessionId = principal.sessionId!;
    record.amr = principal.amr ?? ['pwd'];
    return member;
  }

  /**
   * Sets up an authenticator app for the member (POST /mfa/totp, confirmed with its current code):
   * from now on their password alone is not a sign-in. The member object gets `totp` (the secret
   * and the recovery codes); their token is still that of the sign-in before, whose amr it keeps.
   */
  async enrollTotp(member: TestMember): Promise<TestMember> {
    (member as MemberRecord).totp = await this.factors.enrollTotp(await this.principalOf(member));
    return member;
  }

  /** The code the member's app shows on the kit's clock, one the service has not accepted yet (see login). */
  totpCode(member: TestMember): string {
    return this.factors.code(member);
  }

  /**
   * Registers a passkey for the member, held in a software authenticator (POST /mfa/passkeys).
   * The member object gets `passkey`; their token is still that of the sign-in before.
   */
  async enrollPasskey(member: TestMember, options: PasskeyOptions = {}): Promise<TestMember> {
    (member as MemberRecord).passkey = await this.factors.enrollPasskey(await this.principalOf(member), options);
    return member;
  }

  /** A member with an authenticator app, signed in with their password and a code: amr `["pwd", "otp", "mfa"]`. */
  async memberWithTotp(tenant: TestTenant, role: Role = 'member', options: MemberOptions = {}): Promise<TestMember> {
    return this.login(await this.enrollTotp(await this.member(tenant, role, options)));
  }

  /**
   * A member with a passkey, signed in with it (no password): amr `["passkey", "mfa"]`, or
   * `["passkey"]` with `userVerified: false`.
   */
  async memberWithPasskey(tenant: TestTenant, role: Role = 'member', options: MemberOptions & PasskeyOptions = {}): Promise<TestMember> {
    return this.login(await this.enrollPasskey(await this.member(tenant, role, options), options));
  }

  /**
   * Makes the tenant require a second factor (PATCH /tenant/security `{"mfa":"required"}`), as its
   * owner from a session that used one: an owner with no factor the kit made gets an authenticator
   * app first, and an owner whose token used no factor is signed in again with theirs (the owner
   * object's token and amr change). As the switch does, members without a factor are signed out;
   * their next sign-in (`login`, `member`) is an enrollment session, whose token opens only GET /me,
   * GET /account and the enrollment routes until they enroll and sign in again.
   */
  async requireSecondFactor(tenant: TestTenant): Promise<void> {
    const owner = tenant.owner;
    if (!owner.totp && !owner.passkey) await this.enrollTotp(owner);
    if (!owner.amr.includes('mfa')) await this.login(owner);
    await this.useCases.tenantSecurity.set(await this.principalOf(owner), 'required');
  }

  /**
   * Ends the member's current session, the one whose token the kit holds for them (POST /logout):
   * that token is refused from now on, their other sessions and keys stand. `login` signs them in again.
   */
  async logout(member: TestMember): Promise<void> {
    await this.useCases.logout.execute(await this.principalOf(member));
  }

  /**
   * Ends every session of the member, as an admin would (DELETE /members/:id/sessions, by the
   * tenant's owner): every token of theirs is refused, their keys stand. Resolves with how many ended.
   */
  async endSessions(member: TestMember): Promise<number> {
    return this.useCases.endMemberSessions.execute(await this.ownerOf(member), member.userId);
  }

  /**
   * An API key owned by the member (POST /api-keys). Only an admin or the owner may create a key,
   * so for a member or a viewer the kit does what the contract allows: the owner makes them admin,
   * they create the key, the owner gives their role back. Their role change renews their token,
   * which the member object given is updated with.
   */
  async apiKey(member: TestMember, options: ApiKeyOptions = {}): Promise<TestApiKey> {
    if (member.role === 'owner' || member.role === 'admin') return this.createKey(member, options);
    const owner = await this.ownerOf(member);
    const role = member.role;
    await this.useCases.changeMemberRole.execute(owner, member.userId, 'admin');
    try {
      await this.login(member);
      return await this.createKey(member, options);
    } finally {
      await this.useCases.changeMemberRole.execute(owner, member.userId, role);
      await this.login(member);
    }
  }

  /** Revokes the key (DELETE /api-keys/:id, by its owner's tenant owner): it is refused from now on. */
  async revokeApiKey(key: TestApiKey): Promise<void> {
    await this.useCases.revokeApiKey.execute(await this.ownerOf(key.owner), key.id);
  }

  /** A key of the member that has been revoked. */
  async revokedApiKey(member: TestMember): Promise<TestApiKey> {
    const key = await this.apiKey(member);
    await this.revokeApiKey(key);
    return key;
  }

  /** A key of the member made with a one-day life a day and a minute ago: expired a minute ago. */
  async expiredApiKey(member: TestMember): Promise<TestApiKey> {
    return this.clock.whileAgo({ days: 1, minutes: 1 }, () => this.apiKey(member, { expiresInDays: 1 }));
  }

  /** Removes the member (DELETE /members/:id, by the tenant's owner): their token and keys stop working. */
  async removeMember(member: TestMember): Promise<void> {
    await this.useCases.removeMember.execute(await this.ownerOf(member), member.userId);
  }

  /** A member of the role given who has been removed from the tenant; their (refused) token is in the answer. */
  async removedMember(tenant: TestTenant, role: InvitableRole = 'member'): Promise<TestMember> {
    const member = await this.member(tenant, role);
    await this.removeMember(member);
    return member;
  }

  /**
   * The owner gives the member another role (PATCH /members/:id). A role change ends the member's
   * tokens, so they log in again: the object given is updated with the role and the fresh token.
   * Their keys act with the new role from now on.
   */
  async changeRole(member: TestMember, role: InvitableRole): Promise<TestMember> {
    await this.useCases.changeMemberRole.execute(await this.ownerOf(member), member.userId, role);
    (member as MemberRecord).role = role;
    return this.login(member);
  }

  /** Moves the kit's clock forward: invites and keys expire, throttling windows pass. */
  advanceTime(duration: Duration): Date {
    return this.clock.advance(duration);
  }

  private async createKey(member: TestMember, options: ApiKeyOptions): Promise<TestApiKey> {
    const created = await this.useCases.createApiKey.execute(await this.principalOf(member), options);
    return {
      id: created.id, apiKey: created.apiKey, prefix: created.prefix, name: created.name, expiresAt: created.expiresAt,
      owner: member, headers: { 'x-api-key': created.apiKey },
    };
  }

  private async memberFrom(email: string, password: string, token: string): Promise<TestMember> {
    const principal = await this.authenticated(token);
    return {
      tenantId: principal.tenantId, userId: principal.userId, email, password, role: principal.role as Role, token, headers: bearerHeaders(token),
      sessionId: principal.sessionId!, amr: principal.amr ?? ['pwd'],
    };
  }

  private authenticated(token: string): Promise<Principal> {
    return this.useCases.authenticate.execute({ authorization: `Bearer ${token}`, apiKey: undefined });
  }

  /** Who the member is to the service: their token, authenticated as the protected group does. */
  private principalOf(member: TestMember): Promise<Principal> {
    return this.useCases.authenticate.execute({ authorization: member.headers.authorization, apiKey: undefined });
  }

  /** The member's tenant's owner, as a caller. */
  private async ownerOf(member: TestMember): Promise<Principal> {
    const owner = this.owners.get(member.tenantId);
    const caller = owner ? await this.actingAs(owner) : await this.principalOf(member);
    if (caller.role !== 'owner') throw new Error(`the test kit did not make tenant ${member.tenantId}: arrange it with tenant() first`);
    return caller;
  }

  /** The owner with the token the kit acts with; signed in again when the test has ended its session. */
  private async actingAs(owner: TestMember): Promise<Principal> {
    const token = this.actingTokens.get(owner.tenantId) ?? owner.token;
    try {
      return await this.authenticated(token);
    } catch (error) {
      if (!(error instanceof InvalidToken)) throw error;
      const renewed = await this.factors.signIn(owner);
      this.actingTokens.set(owner.tenantId, renewed);
      return this.authenticated(renewed);
    }
  }
}
