import { InvalidSecondFactor, TooManyFailedLogins } from '../../domain/errors';
import { normalizeEmail } from '../../domain/email';
import type { Amr } from '../../domain/second-factor';
import type { User } from '../../domain/user';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { SecondFactorMethod } from '../mfa/second-factor';
import { amrAfterPassword, amrAfterSso, type SecondFactors } from '../mfa/second-factors';
import type { Clock } from '../ports/clock';
import type { DeviceProofs } from '../ports/device-proofs';
import type { LoginAttempt, LoginThrottle } from '../ports/login-throttle';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import { type LoginResult, MFA_TOKEN_PURPOSES } from './login';
import { postNewSignInNotice } from './new-sign-in-notice';
import { enrollmentClaim } from '../mfa/enrollment-sessions';

export interface CompleteSignInInput {
  readonly mfaToken: unknown;
  /** The one proof given, by method: `code` is `totp`, `recovery_code` and `passkey` as named. */
  readonly proofs: Partial<Record<SecondFactorMethod, unknown>>;
  readonly deviceProof?: string | undefined;
}

export interface CompleteSignInDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly emailTokens: EmailTokens;
  readonly factors: SecondFactors;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
  /** Wrong proofs per member (SECOND_FACTOR_FAILURES): the login throttle's machinery with its own, tighter counts. */
  readonly throttle: LoginThrottle;
  readonly deviceProofs: DeviceProofs;
  readonly sessions: SessionBook;
  readonly postbox: Postbox;
  readonly trail: AuditTrail;
  readonly clock: Clock;
}

/** Refuses inside the unit of work, so what the check wrote (a step, a used code) is undone with it. */
class TokenAlreadyUsed extends Error {}

/**
 * POST /login/mfa: the second step of a sign-in whose password was right (Login). The mfa_token
 * names the member; their throttle of wrong proofs is asked next, before the proof is checked, so a
 * throttled member is refused whatever the proof. In one unit of work the proof is checked (and
 * consumed: a code's step, a recovery code), the mfa_token used, the session started with its amr,
 * and the sign-in recorded with its notice for a device the account has not seen: either all of it
 * or none, so one mfa_token makes at most one session and a wrong proof leaves it usable until it
 * expires. Every refusal is the same 401 `Invalid second factor`.
 */
export class CompleteSignIn {
  constructor(private readonly deps: CompleteSignInDeps) {}

  async execute(input: CompleteSignInInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<LoginResult> {
    const { repos, unitOfWork, emailTokens, factors, tokens, secrets, throttle, deviceProofs, sessions, trail } = this.deps;
    const link = await emailTokens.openLink(repos, input.mfaToken, MFA_TOKEN_PURPOSES);
    if (!link) throw new InvalidSecondFactor();
    const { token: mfaToken, member: user } = link;
    const owner = { tenantId: user.tenantId, userId: user.id };
    const accountKey = secrets.sha256Hex(normalizeEmail(user.email));
    const device = input.deviceProof === undefined ? null : deviceProofs.verify(input.deviceProof, accountKey);
    const attempt: LoginAttempt = {
      accountKey: secrets.sha256Hex(`second-factor:${user.tenantId}:${user.id}`), clientAddress: origin.clientAddress,
      ...(device === null ? {} : { device }),
    };
    const decision = await throttle.recordAttempt(attempt);
    if (!decision.allowed) {
      await this.recordFailure(user, origin, 'throttled');
      throw new TooManyFailedLogins(decision.retryAfterSeconds);
    }

    let done: { sessionId: string; amr: Amr[] } | null;
    try {
      done = await unitOfWork.run(async (tx) => {
        const method = await factors.verifyOne(tx, owner, input.proofs, mfaToken.id);
        if (method === null) return null;
        if (!(await tx.emailTokens.consume(mfaToken.tenantId, mfaToken.id, this.deps.clock.now()))) throw new TokenAlreadyUsed();
        // The first factor was the password, or the tenant's identity provider (an mfa_token the SSO exchange made).
        const amr = mfaToken.purpose === 'sso_mfa_sign_in' ? amrAfterSso(method) : amrAfterPassword(method);
        const succeeded = trail.event(origin, {
          tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'login.succeeded', targetId: user.id,
          details: { amr: amr.join(' ') },
        });
        await tx.auditEvents.append(succeeded);
        if (method === 'recovery_code') {
          await tx.auditEvents.append(trail.event(origin, {
            tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'mfa.recovery_code_used', targetId: user.id,
            details: { remaining: await tx.recoveryCodes.countUnused(user.tenantId, user.id) },
          }));
        }
        if (device === null) await postNewSignInNotice(this.deps.postbox, this.deps.clock, tx, user, succeeded, origin);
        return { sessionId: await sessions.start(tx, owner, 'login', origin, amr), amr };
      });
    } catch (error) {
      if (!(error instanceof TokenAlreadyUsed)) throw error;
      done = null;
    }
    if (!done) {
      await this.recordFailure(user, origin, 'invalid_second_factor');
      throw new InvalidSecondFactor();
    }
    await throttle.recordSuccess(attempt);
    const member = await repos.users.findById(user.tenantId, user.id) ?? user;
    const token = tokens.issue({
      tenantId: member.tenantId, userId: member.id, email: member.email, role: member.role, authVersion: member.authVersion,
      sessionId: done.sessionId, amr: done.amr, ...await enrollmentClaim(repos, member.tenantId, done.amr),
    });
    return { token, expiresIn: tokens.expiresIn, deviceProof: deviceProofs.issue(accountKey, device ?? undefined) };
  }

  /** `mfa.failed` in the member's tenant: someone holding their password gave no valid second factor. */
  private async recordFailure(user: User, origin: RequestOrigin, reason: string): Promise<void> {
    await this.deps.repos.auditEvents.append(this.deps.trail.event(origin, {
      tenantId: user.tenantId, actor: { userId: null, method: 'none' }, action: 'mfa.failed', targetId: user.id, details: { reason },
    }));
  }
}
