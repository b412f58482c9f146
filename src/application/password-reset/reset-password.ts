import { InvalidResetToken, SecondFactorRequired, TooManyFailedLogins } from '../../domain/errors';
import { PASSWORD_AMR } from '../../domain/second-factor';
import type { FactorOwner, SecondFactorMethod } from '../mfa/second-factor';
import { amrAfterPassword, type SecondFactors } from '../mfa/second-factors';
import type { LoginAttempt, LoginThrottle } from '../ports/login-throttle';
import type { Secrets } from '../ports/secrets';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { NewPasswordCheck } from '../passwords/new-password-check';
import type { SessionBook } from '../sessions/session-book';
import type { User } from '../../domain/user';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import { mustUseSso } from '../sso/sso-required';

export interface ResetPasswordInput {
  readonly token: unknown;
  readonly password: string;
  /** A member with a second factor proves one here: `totp` (the body's `code`), `recovery_code`, `passkey`. */
  readonly proofs?: Partial<Record<SecondFactorMethod, unknown>>;
}

export interface ResetPasswordResult {
  readonly token: string;
  readonly expiresIn: string;
}

export interface ResetPasswordDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly emailTokens: EmailTokens;
  readonly postbox: Postbox;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  /** PASSWORD_POLICY's rules for the new password. */
  readonly passwords: NewPasswordCheck;
  readonly sessions: SessionBook;
  readonly factors: SecondFactors;
  /** Wrong second-factor proofs per member: the same counts as the sign-in's second step. */
  readonly throttle: LoginThrottle;
  readonly secrets: Secrets;
}

/**
 * POST /password/reset: a new password for whoever holds a reset link (ASVS V6.4.3). The token is
 * looked up and the hash made before the transaction; inside it, the token is used once and the
 * password set only while the stored hash is the one read before, so neither a second use of the
 * link nor a change that raced it is undone. Every bearer token issued before is refused from the
 * next request (the auth version rises), every session of the member ends and the answer's token
 * starts a new one, the member's other reset links and any pending address
 * change die with it, and the address counts as proven (the link reached it). API keys stay: see
 * docs/security.md.
 */
export class ResetPassword {
  constructor(private readonly deps: ResetPasswordDeps) {}

  async execute(input: ResetPasswordInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<ResetPasswordResult> {
    const { repos, unitOfWork, hasher, tokens, emailTokens, postbox, clock, trail } = this.deps;
    const link = await emailTokens.openLink(repos, input.token, 'password_reset');
    if (!link) throw new InvalidResetToken();
    const { token: found, member: user } = link;
    const owner = { tenantId: user.tenantId, userId: user.id };
    const methods = await this.deps.factors.methodsOf(repos, owner);
    const attempt = methods.length === 0 ? null : await this.admitProof(input, owner, methods, origin);
    const tenant = await repos.tenants.findById(user.tenantId);
    if (!tenant) throw new InvalidResetToken();
    await this.deps.passwords.check(input.password, { email: user.email, tenantName: tenant.name });
    const change = { from: user.passwordHash, to: await hasher.hash(input.password) };

    const changed = await this.failuresRecorded(user, attempt !== null, origin, () => unitOfWork.run(async (tx) => {
      const now = clock.now();
      // The factor first: a wrong one undoes nothing and leaves the link usable (ASVS V6.4.3).
      const method = methods.length === 0 ? null : await this.deps.factors.verifyOne(tx, owner, input.proofs ?? {}, found.id);
      if (methods.length > 0 && method === null) throw new SecondFactorRequired(methods);
      // Single sign-on required since the link was sent: the link is answered as spent (forgot-password.ts sends none).
      if (await mustUseSso(tx, user)) return null;
      if (!(await tx.emailTokens.consume(found.tenantId, found.id, now))) return null;
      const after = await tx.users.changePassword(user.tenantId, user.id, change);
      // The hash changed since it was read (a rehash at login raced this): undone, the link still works for a retry.
      if (!after) throw new InvalidResetToken();
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'password_reset', now);
      // An address change asked for with the old password (perhaps by whoever made the owner reset it) dies too.
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'email_change', now);
      // A sign-in waiting for its second factor was started with the old password.
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'mfa_sign_in', now);
      await tx.users.markEmailVerified(user.tenantId, user.id, user.email, now);
      const member = { tenantId: user.tenantId, userId: user.id };
      await this.deps.sessions.endAll(tx, member, { userId: user.id, method: 'none' }, 'password_reset', origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'password.reset', targetId: user.id,
      }));
      await postbox.post(tx, {
        tenantId: user.tenantId, userId: user.id,
        mail: { kind: 'password-reset-done', input: { to: user.email, tenantName: tenant.name, resetAt: now.toISOString() } },
      }, origin);
      const amr = method === null ? PASSWORD_AMR : amrAfterPassword(method);
      return { user: after, amr, sessionId: await this.deps.sessions.start(tx, member, 'password_reset', origin, amr) };
    }));
    // Used, or voided, since it was read.
    if (!changed) throw new InvalidResetToken();
    if (attempt) await this.deps.throttle.recordSuccess(attempt);

    const { user: member, sessionId, amr } = changed;
    const token = tokens.issue({
      tenantId: member.tenantId, userId: member.id, email: member.email, role: member.role, authVersion: member.authVersion, sessionId, amr,
      ...await enrollmentClaim(repos, member.tenantId, amr),
    });
    return { token, expiresIn: tokens.expiresIn };
  }

  /** A wrong second factor is recorded as `mfa.failed` in the member's tenant, as at sign-in; the refusal goes on. */
  private async failuresRecorded<T>(user: User, proofGiven: boolean, origin: RequestOrigin, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (proofGiven && error instanceof SecondFactorRequired) {
        await this.deps.repos.auditEvents.append(this.deps.trail.event(origin, {
          tenantId: user.tenantId, actor: { userId: null, method: 'none' }, action: 'mfa.failed', targetId: user.id,
          details: { reason: 'invalid_second_factor', during: 'password_reset' },
        }));
      }
      throw error;
    }
  }

  /**
   * A member with a factor must give a proof of one: none at all is answered with the kinds they
   * have; one given is counted against their throttle of wrong proofs before it is checked.
   */
  private async admitProof(
    input: ResetPasswordInput, owner: FactorOwner, methods: readonly SecondFactorMethod[], origin: RequestOrigin,
  ): Promise<LoginAttempt> {
    if (!Object.values(input.proofs ?? {}).some((proof) => proof !== undefined)) throw new SecondFactorRequired(methods);
    const attempt = { accountKey: this.deps.secrets.sha256Hex(`second-factor:${owner.tenantId}:${owner.userId}`), clientAddress: origin.clientAddress };
    const decision = await this.deps.throttle.recordAttempt(attempt);
    if (!decision.allowed) throw new TooManyFailedLogins(decision.retryAfterSeconds);
    return attempt;
  }
}
