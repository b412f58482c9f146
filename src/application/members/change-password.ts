import { CurrentPasswordIncorrect } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import { memberPasswordContext, type NewPasswordCheck } from '../passwords/new-password-check';
import { proveOwnPassword } from '../passwords/throttled-password-check';
import type { LoginThrottle } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { Clock } from '../ports/clock';
import type { Postbox } from '../mail/postbox';
import type { SessionBook } from '../sessions/session-book';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import { PASSWORD_AMR } from '../../domain/second-factor';

export interface ChangePasswordInput {
  readonly currentPassword: string;
  readonly newPassword: string;
}

export interface ChangePasswordResult {
  /** A token at the new auth version: the change ends every earlier session, the caller's included. */
  readonly token: string;
  readonly expiresIn: string;
}

export interface ChangePasswordDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
  readonly throttle: LoginThrottle;
  readonly trail: AuditTrail;
  readonly clock: Clock;
  /** Where the "your password was changed" notice goes. */
  readonly postbox: Postbox;
  /** PASSWORD_POLICY's rules for the new password. */
  readonly passwords: NewPasswordCheck;
  readonly sessions: SessionBook;
}

/**
 * The caller's own password. The current password is checked through the login throttle, counted
 * per account and client address as logins are, so a stolen token cannot be used to guess it faster
 * than a login could, and an attacker's failed logins elsewhere do not stop the owner changing it.
 * Both scrypt runs happen before the transaction, which only writes, and only while the stored hash
 * is still the one the current password was verified against. The new token is made from the member
 * as the change left them: a role change that committed while the hashes were being made is in it.
 * Every other session of the member ends; the caller's own goes on with the new token (a caller
 * without one, by an API key or an older token, gets a new session, the password just proven).
 */
export class ChangePassword {
  constructor(private readonly deps: ChangePasswordDeps) {}

  async execute(caller: Principal, input: ChangePasswordInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<ChangePasswordResult> {
    const { repos, unitOfWork, hasher, tokens, secrets, throttle, trail } = this.deps;
    const user = await repos.users.findById(caller.tenantId, caller.userId);
    if (!user) throw callerGone(caller);

    await proveOwnPassword({ hasher, secrets, throttle }, user, input.currentPassword, origin, () => new CurrentPasswordIncorrect());
    await this.deps.passwords.check(input.newPassword, memberPasswordContext(repos.tenants, user));

    const change = { from: user.passwordHash, to: await hasher.hash(input.newPassword) };
    const changed = await unitOfWork.run(async (tx) => {
      const after = await tx.users.changePassword(user.tenantId, user.id, change);
      if (!after) return null;
      const now = this.deps.clock.now();
      // A reset link sent before the change must not undo it, nor an address change asked for with the old password.
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'password_reset', now);
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'email_change', now);
      // A sign-in waiting for its second factor was started with the old password.
      await tx.emailTokens.voidUnused(user.tenantId, user.id, 'mfa_sign_in', now);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: caller, action: 'password.changed', targetId: user.id,
      }));
      const member = { tenantId: user.tenantId, userId: user.id };
      const current = caller.method === 'jwt' ? caller.sessionId : undefined;
      await this.deps.sessions.endAll(tx, member, caller, 'password_change', origin, current);
      const sessionId = current ?? await this.deps.sessions.start(tx, member, 'password_change', origin);
      const tenant = await tx.tenants.findById(user.tenantId);
      if (tenant) {
        await this.deps.postbox.post(tx, {
          tenantId: user.tenantId, userId: user.id,
          mail: { kind: 'password-changed', input: { to: after.email, tenantName: tenant.name, changedAt: now.toISOString() } },
        }, origin);
      }
      return { ...after, sessionId };
    });
    if (!changed) {
      // Gone, or another password was set since this one was verified: the one given is not current.
      if (!(await repos.users.findById(caller.tenantId, caller.userId))) throw callerGone(caller);
      throw new CurrentPasswordIncorrect();
    }

    // The session kept is the caller's own, authenticated as it was; a new one proved the password.
    const amr = caller.method === 'jwt' && caller.sessionId !== undefined ? caller.amr ?? PASSWORD_AMR : PASSWORD_AMR;
    const token = tokens.issue({
      tenantId: changed.tenantId, userId: changed.id, email: changed.email, role: changed.role, authVersion: changed.authVersion,
      sessionId: changed.sessionId,
      amr, ...await enrollmentClaim(repos, changed.tenantId, amr),
    });
    return { token, expiresIn: tokens.expiresIn };
  }
}
