import { normalizeEmail } from '../../domain/email';
import { EmailAlreadyRegistered, SsoAnswerRefused, SsoDiscoveryFailed, SsoSignInRefused } from '../../domain/errors';
import { isEnrollmentOnly } from '../../domain/second-factor';
import { domainOfEmail, type SsoConnection, type SsoSignIn } from '../../domain/sso';
import { roleForGroups, ssoSessionAmr } from '../../domain/sso-sign-in';
import { INITIAL_AUTH_VERSION, type User } from '../../domain/user';
import type { AuditTrail, RequestOrigin } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { SecondFactors } from '../mfa/second-factors';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { IdGenerator } from '../ports/ids';
import type { OidcProviders, OidcVerifiedClaims } from '../ports/oidc-providers';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import { clientSettingsOf, SSO_HANDOFF_TTL_SECONDS, type SsoAddresses } from './sso-settings';

export interface FinishSsoSignInDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly oidc: OidcProviders;
  readonly factorSecrets: FactorSecrets;
  readonly hasher: PasswordHasher;
  readonly secrets: Secrets;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly sessions: SessionBook;
  readonly emailTokens: EmailTokens;
  readonly factors: SecondFactors;
  readonly addresses: SsoAddresses;
}

/** The provider's answer, as the browser brought it to the callback (code, state, iss; or error). */
export type SsoCallbackParameters = Readonly<Record<string, string | undefined>>;

/** Each refusal: what the person is shown, and the reason the audit trail keeps. */
const REFUSALS = {
  unknown_state: 'This sign-in has expired or was already used; please start again',
  no_connection: 'No single sign-on for this address',
  provider_error: 'The identity provider did not sign you in',
  invalid_answer: "The identity provider's answer could not be verified",
  discovery_failed: "Could not read the provider's discovery document",
  no_email: 'The identity provider did not give an address',
  email_unverified: 'The identity provider has not verified this address',
  domain_not_verified: 'This address is not in a verified domain of this organisation',
  address_of_another_tenant: 'This address belongs to another tenant',
  member_unavailable: 'This account cannot sign in',
  member_suspended: 'This account is deactivated',
  concurrent_sign_in: 'Another sign-in of this account is under way; please try again',
} as const;
type RefusalReason = keyof typeof REFUSALS;

function refuse(reason: RefusalReason, tenantId: string | null, check?: string): SsoSignInRefused {
  return new SsoSignInRefused(REFUSALS[reason], reason, tenantId, check);
}

/** Thrown inside the unit of work so that it rolls back; turned into the refusal outside. */
class IdentityTaken extends Error {}

/**
 * GET /sso/callback: the provider's answer. The state is used once (consumed before anything else,
 * so a replayed answer is refused whatever it carries); the code is redeemed and the ID token
 * checked (OidcProviders) before the unit of work. Inside it, the identity is found by (tenant,
 * issuer, subject) and never by address (ASVS V6.8.1). At a first sign-in the address must be one
 * the provider verified, of a domain this tenant verified: then an existing member of this tenant
 * with it is linked, and otherwise a member is created (a role from the groups, else the default),
 * the address counting as verified. An address registered in another tenant is refused, as is a
 * removed or suspended member.
 *
 * The session starts here, bound to the tenant whose provider answered, with amr `sso` (and `mfa`
 * when the provider proved a second factor); the one-time code handed to the console carries the
 * session's id. When the tenant requires a second factor the provider did not prove and the member
 * has one of their own, no session starts: the code leads to that factor being asked (exchange).
 */
export class FinishSsoSignIn {
  constructor(private readonly deps: FinishSsoSignInDeps) {}

  /** Where the callback sends the browser: the console's page with the code, or with the message of a refusal. */
  consoleLocation(outcome: { readonly code: string } | { readonly error: string }): string {
    const url = new URL(this.deps.addresses.consoleCallbackUrl);
    if ('code' in outcome) url.searchParams.set('code', outcome.code);
    else url.searchParams.set('error', outcome.error);
    return url.href;
  }

  /** Answers the one-time code; throws SsoSignInRefused (recorded in the audit trail) for every refusal. */
  async execute(params: SsoCallbackParameters, origin: RequestOrigin): Promise<{ code: string }> {
    try {
      return await this.signIn(params, origin);
    } catch (error) {
      if (error instanceof SsoSignInRefused) await this.recordRefusal(error, origin);
      throw error;
    }
  }

  private async signIn(params: SsoCallbackParameters, origin: RequestOrigin): Promise<{ code: string }> {
    const { repos, secrets, clock } = this.deps;
    const state = params['state'];
    const signIn = typeof state === 'string' && state !== '' ? await repos.ssoSignIns.consume(secrets.sha256Hex(state), clock.now()) : null;
    if (!signIn) throw refuse('unknown_state', null);
    const connection = await repos.ssoConnections.find(signIn.tenantId);
    if (!connection || connection.issuer !== signIn.issuer) throw refuse('no_connection', signIn.tenantId);
    const providerError = params['error'];
    if (providerError !== undefined) throw refuse('provider_error', signIn.tenantId, providerError);
    const claims = await this.verifiedClaims(connection, signIn, params);

    const known = await repos.ssoIdentities.find(connection.tenantId, connection.issuer, claims.subject);
    // A member may be created: the password they will never be told is hashed before the unit of work.
    const unusablePassword = known ? null : await this.deps.hasher.hash(secrets.randomHex(32));
    try {
      return await this.deps.unitOfWork.run((tx) => this.admit(tx, connection, claims, unusablePassword, origin));
    } catch (error) {
      if (error instanceof EmailAlreadyRegistered) throw refuse('address_of_another_tenant', connection.tenantId);
      if (error instanceof IdentityTaken) throw refuse('concurrent_sign_in', connection.tenantId);
      throw error;
    }
  }

  private async verifiedClaims(connection: SsoConnection, signIn: SsoSignIn, params: SsoCallbackParameters): Promise<OidcVerifiedClaims> {
    const answer = new URL(this.deps.addresses.redirectUri);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) answer.searchParams.set(name, value);
    try {
      const claims = await this.deps.oidc.finishSignIn(clientSettingsOf(connection, this.deps.factorSecrets), answer.href, {
        state: params['state'] ?? '', nonce: signIn.nonce, codeVerifier: signIn.codeVerifier,
      });
      if (claims.issuer !== connection.issuer) throw new SsoAnswerRefused('issuer differs from the connection');
      return claims;
    } catch (error) {
      if (error instanceof SsoAnswerRefused) throw refuse('invalid_answer', connection.tenantId, error.reason);
      if (error instanceof SsoDiscoveryFailed) throw refuse('discovery_failed', connection.tenantId);
      throw error;
    }
  }

  private async admit(
    tx: Repositories, connection: SsoConnection, claims: OidcVerifiedClaims, unusablePassword: string | null, origin: RequestOrigin,
  ): Promise<{ code: string }> {
    const { clock, trail, sessions, emailTokens, factors } = this.deps;
    const tenantId = connection.tenantId;
    const now = clock.now();
    const identity = await tx.ssoIdentities.find(tenantId, connection.issuer, claims.subject);
    let member: User;
    let joined: 'known' | 'linked' | 'created' = 'known';
    if (identity) {
      const found = await tx.users.findById(tenantId, identity.userId);
      if (found && (await tx.users.suspendedAt(tenantId, found.id)) !== null) throw refuse('member_suspended', tenantId);
      if (!found || !(await tx.users.holdAuthState(tenantId, found.id))) throw refuse('member_unavailable', tenantId);
      await tx.ssoIdentities.recordSignIn(tenantId, connection.issuer, claims.subject, now);
      member = found;
    } else {
      ({ member, joined } = await this.firstSignIn(tx, connection, claims, unusablePassword, origin));
      if (!(await tx.ssoIdentities.create({
        tenantId, issuer: connection.issuer, subject: claims.subject, userId: member.id, createdAt: now, lastSignInAt: now,
      }))) throw new IdentityTaken();
    }

    const owner = { tenantId, userId: member.id };
    const amr = ssoSessionAmr(claims.amr);
    const policy = await tx.tenants.mfaPolicy(tenantId) ?? 'optional';
    const ownFactorAsked = isEnrollmentOnly(policy, amr) && (await factors.methodsOf(tx, owner)).length > 0;
    const sessionId = ownFactorAsked ? undefined : await sessions.start(tx, owner, 'sso', origin, amr);
    await tx.auditEvents.append(trail.event(origin, {
      tenantId, actor: { userId: member.id, method: 'none' }, action: 'sso.sign_in', targetId: member.id,
      details: { issuer: connection.issuer, amr: amr.join(' '), joined, second_factor: ownFactorAsked ? 'asked' : 'none' },
    }));
    const code = await emailTokens.issue(tx, {
      ...owner, email: member.email, purpose: 'sso_handoff', ttlSeconds: SSO_HANDOFF_TTL_SECONDS, ...(sessionId ? { id: sessionId } : {}),
    });
    return { code };
  }

  /** No identity yet: the address decides, and only within this tenant's verified domains. */
  private async firstSignIn(
    tx: Repositories, connection: SsoConnection, claims: OidcVerifiedClaims, unusablePassword: string | null, origin: RequestOrigin,
  ): Promise<{ member: User; joined: 'linked' | 'created' }> {
    const tenantId = connection.tenantId;
    if (claims.email === null) throw refuse('no_email', tenantId);
    if (!claims.emailVerified) throw refuse('email_unverified', tenantId);
    const email = normalizeEmail(claims.email);
    const domain = domainOfEmail(email);
    if (domain === null || await tx.ssoDomains.verifiedOwner(domain) !== tenantId) throw refuse('domain_not_verified', tenantId);
    const now = this.deps.clock.now();
    // A suspended member is found by no credential lookup (findByEmail included), yet keeps the address.
    const ofThisTenant = await tx.users.findInTenantByEmail(tenantId, email);
    if (ofThisTenant && (await tx.users.suspendedAt(tenantId, ofThisTenant.id)) !== null) throw refuse('member_suspended', tenantId);
    const existing = await tx.users.findByEmail(email);
    if (existing && existing.tenantId !== tenantId) throw refuse('address_of_another_tenant', tenantId);
    if (existing) {
      if (!(await tx.users.holdAuthState(tenantId, existing.id))) throw refuse('member_unavailable', tenantId);
      await tx.users.markEmailVerified(tenantId, existing.id, email, now);
      return { member: existing, joined: 'linked' };
    }
    // The identity was found before the unit of work: the hash is missing only if it appeared meanwhile and went again.
    if (unusablePassword === null) throw new IdentityTaken();
    const member: User = {
      id: this.deps.ids.newId(), tenantId, email, passwordHash: unusablePassword, role: roleForGroups(connection, claims.groups),
      createdAt: now, authVersion: INITIAL_AUTH_VERSION,
    };
    await tx.users.create(member);
    await tx.users.markEmailVerified(tenantId, member.id, email, now);
    await tx.auditEvents.append(this.deps.trail.event(origin, {
      tenantId, actor: { userId: null, method: 'none' }, action: 'sso.member_created', targetId: member.id,
      details: { role: member.role, issuer: connection.issuer },
    }));
    return { member, joined: 'created' };
  }

  private async recordRefusal(refusal: SsoSignInRefused, origin: RequestOrigin): Promise<void> {
    await this.deps.repos.auditEvents.append(this.deps.trail.event(origin, {
      tenantId: refusal.tenantId, actor: { userId: null, method: 'none' }, action: 'sso.sign_in_refused', targetId: null,
      details: { reason: refusal.reason, ...(refusal.check ? { check: refusal.check.slice(0, 300) } : {}) },
    }));
  }
}
