import {
  EmailAlreadyRegistered, InvalidInviteToken, InviteAlreadyAccepted, InviteExpired, SsoRequiredForAddress, TenantNameRequired,
} from '../../domain/errors';
import { normalizeEmail } from '../../domain/email';
import { normalizeTenantName } from '../../domain/tenant';
import { type Invite, inviteState, isWellFormedInviteToken } from '../../domain/invite';
import type { Role } from '../../domain/role';
import { INITIAL_AUTH_VERSION } from '../../domain/user';
import { makeSlug, SLUG_SUFFIX_HEX_LENGTH } from '../../domain/slug';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { NewPasswordCheck } from '../passwords/new-password-check';
import type { Clock } from '../ports/clock';
import type { DeviceProof, DeviceProofs } from '../ports/device-proofs';
import type { IdGenerator } from '../ports/ids';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import { postVerificationLink, type VerificationLinkDeps } from '../email-address/verification-link';
import type { SessionBook } from '../sessions/session-book';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import { PASSWORD_AMR } from '../../domain/second-factor';
import { ssoRequiringTenant } from '../sso/sso-required';

export interface SignupInput {
  readonly email: string;
  readonly password: string;
  readonly tenantName?: string | undefined;
  readonly inviteToken?: string | undefined;
}

export interface SignupResult {
  readonly token: string;
  readonly tenantId: string;
  readonly expiresIn: string;
  /** The new member's first device: known to the login throttle from now on (login.ts). */
  readonly deviceProof: DeviceProof;
}

interface Joined {
  readonly tenantId: string;
  readonly tenantName: string;
  readonly role: Role;
  /** Set when the signup consumed an invite. */
  readonly inviteId?: string;
}

export interface SignupDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  /** PASSWORD_POLICY's rules for the new password. */
  readonly passwords: NewPasswordCheck;
  /** The verification link every new member is sent (postbox, tokens and their lifetime). */
  readonly verification: VerificationLinkDeps;
  readonly deviceProofs: DeviceProofs;
  readonly sessions: SessionBook;
  /**
   * When true, an invite is accepted only by a signup with the address it was sent to; otherwise
   * (the contract's rule) by any address holding its token.
   */
  readonly inviteRequiresEmailMatch?: boolean;
}

function assertAcceptable(invite: Invite, now: Date): void {
  const state = inviteState(invite, now);
  if (state === 'accepted') throw new InviteAlreadyAccepted();
  if (state === 'expired') throw new InviteExpired();
}

/**
 * The signup rules of docs/contract.md, "Tenants, members and credentials": a new tenant with its
 * owner, or a new member through an invite, in one transaction, which also posts the message that
 * asks the new member to verify their address.
 */
export class Signup {
  constructor(private readonly deps: SignupDeps) {}

  async execute(input: SignupInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<SignupResult> {
    const { repos, unitOfWork, hasher, tokens, ids } = this.deps;
    const email = normalizeEmail(input.email);
    if (input.inviteToken === undefined && !input.tenantName) throw new TenantNameRequired();

    // An e-mail registered once across all tenants: answered before the costly hash; the unique index still decides races inside the transaction.
    if (await repos.users.findByEmail(email)) throw new EmailAlreadyRegistered();
    // A new tenant can never be the one that requires single sign-on of the address: refused before the hash.
    if (input.inviteToken === undefined && (await ssoRequiringTenant(repos, email)) !== null) throw new SsoRequiredForAddress();
    await this.deps.passwords.check(input.password, async () => ({ email, tenantName: await this.tenantNameFor(input) }));
    const passwordHash = await hasher.hash(input.password);

    const userId = ids.newId();
    const joined = await unitOfWork.run(async (tx) => {
      const target = input.inviteToken !== undefined
        ? await this.acceptInvite(tx, input.inviteToken, email)
        : await this.createTenant(tx, normalizeTenantName(input.tenantName as string));
      // An address of a domain whose tenant requires single sign-on joins that tenant only (by its
      // invitation; the member then signs in through the provider), never another or a new one.
      const ssoTenant = await ssoRequiringTenant(tx, email);
      if (ssoTenant !== null && ssoTenant !== target.tenantId) throw new SsoRequiredForAddress();
      await tx.users.create({
        id: userId, tenantId: target.tenantId, email, passwordHash, role: target.role, createdAt: this.deps.clock.now(),
        authVersion: INITIAL_AUTH_VERSION,
      });
      await this.recordSignup(tx, origin, userId, target);
      // Accepting an invitation proves nothing of the address: whoever sent it holds its token too.
      await postVerificationLink(tx, this.deps.verification, { tenantId: target.tenantId, tenantName: target.tenantName, userId, email }, origin);
      const how = target.inviteId === undefined ? 'signup' : 'invitation';
      return { ...target, sessionId: await this.deps.sessions.start(tx, { tenantId: target.tenantId, userId }, how, origin) };
    });

    const token = tokens.issue({
      tenantId: joined.tenantId, userId, email, role: joined.role, authVersion: INITIAL_AUTH_VERSION, sessionId: joined.sessionId, amr: PASSWORD_AMR,
      ...await enrollmentClaim(repos, joined.tenantId, PASSWORD_AMR),
    });
    const deviceProof = this.deps.deviceProofs.issue(this.deps.secrets.sha256Hex(email));
    return { token, tenantId: joined.tenantId, expiresIn: tokens.expiresIn, deviceProof };
  }

  /**
   * The name of the tenant the signup joins, for the password policy: the new tenant's, or the
   * inviting tenant's. Unknown (undefined) for a token that matches no invite, which the
   * transaction then refuses as it always does.
   */
  private async tenantNameFor(input: SignupInput): Promise<string | undefined> {
    if (input.inviteToken === undefined) return normalizeTenantName(input.tenantName as string);
    const { invites, tenants } = this.deps.repos;
    const invite = isWellFormedInviteToken(input.inviteToken) ? await invites.findByToken(input.inviteToken) : null;
    return invite ? (await tenants.findById(invite.tenantId))?.name : undefined;
  }

  /** The invite path wins even when a tenant name is also given. */
  private async acceptInvite(tx: Repositories, token: string, email: string): Promise<Joined> {
    const now = this.deps.clock.now();
    const invite = isWellFormedInviteToken(token) ? await tx.invites.findByToken(token) : null;
    if (!invite) throw new InvalidInviteToken();
    // Invites are stored with the address normalised as signups are. A token used for another
    // address is answered as if it did not exist: it says nothing of the invite's state.
    if (this.deps.inviteRequiresEmailMatch && normalizeEmail(invite.email) !== email) throw new InvalidInviteToken();
    assertAcceptable(invite, now);
    // The conditional update is what makes acceptance single-use under concurrent signups. When it
    // matches nothing, the invite changed since it was read: accepted by another signup, or revoked
    // (its sender was removed or demoted), and the answer is the one its state now calls for.
    if (!(await tx.invites.markAccepted(invite.tenantId, invite.id, now))) {
      const current = await tx.invites.findByToken(token);
      if (!current) throw new InvalidInviteToken();
      assertAcceptable(current, now);
      throw new InviteAlreadyAccepted();
    }
    const tenant = await tx.tenants.findById(invite.tenantId);
    if (!tenant) throw new InvalidInviteToken();
    return { tenantId: invite.tenantId, tenantName: tenant.name, role: invite.role, inviteId: invite.id };
  }

  /** In the signup's own transaction: an invite signup also records the invite's acceptance. */
  private async recordSignup(tx: Repositories, origin: RequestOrigin, userId: string, joined: Joined): Promise<void> {
    const actor = { userId, method: 'none' } as const;
    const { trail } = this.deps;
    if (joined.inviteId === undefined) {
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: joined.tenantId, actor, action: 'signup.tenant_created', targetId: userId, details: { role: joined.role },
      }));
      return;
    }
    await tx.auditEvents.append(trail.event(origin, {
      tenantId: joined.tenantId, actor, action: 'signup.invite_accepted', targetId: userId, details: { role: joined.role, invite_id: joined.inviteId },
    }));
    await tx.auditEvents.append(trail.event(origin, {
      tenantId: joined.tenantId, actor, action: 'invite.accepted', targetId: joined.inviteId, details: { user_id: userId },
    }));
  }

  /** How many random slug suffixes a signup draws before it gives up (createTenant). */
  private static readonly SLUG_ATTEMPTS = 5;

  /**
   * The first user of a new tenant owns it (docs/contract.md, "Tenants, members and credentials"). Its slug's suffix is random; when another tenant
   * already has the slug it makes, another suffix is drawn. A draw meets a given taken slug once in
   * 16.7 million, so SLUG_ATTEMPTS taken slugs in a row mean something else is wrong (a broken
   * random source), and the signup fails rather than loop.
   */
  private async createTenant(tx: Repositories, name: string): Promise<Joined> {
    const { ids, secrets, clock } = this.deps;
    const tenantId = ids.newId();
    for (let attempt = 0; attempt < Signup.SLUG_ATTEMPTS; attempt += 1) {
      const slug = makeSlug(name, secrets.randomHex(SLUG_SUFFIX_HEX_LENGTH / 2));
      if (await tx.tenants.create({ id: tenantId, name, slug, createdAt: clock.now() })) return { tenantId, tenantName: name, role: 'owner' };
    }
    throw new Error(`Signup: every slug drawn for the new tenant was taken (${Signup.SLUG_ATTEMPTS} random suffixes)`);
  }
}
