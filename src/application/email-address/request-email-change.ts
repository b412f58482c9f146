import { normalizeEmail } from '../../domain/email';
import {
  CurrentPasswordIncorrect, EmailAlreadyRegistered, EmailUnchanged, MailNotConfigured, SignInRequired,
} from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import { proveOwnPassword } from '../passwords/throttled-password-check';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { LoginThrottle } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RequestEmailChangeInput {
  readonly newEmail: string;
  readonly currentPassword: string;
}

export interface RequestEmailChangeDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly hasher: PasswordHasher;
  readonly secrets: Secrets;
  readonly throttle: LoginThrottle;
  readonly postbox: Postbox;
  readonly emailTokens: EmailTokens;
  readonly trail: AuditTrail;
  readonly changeTtlSeconds: number;
}

/**
 * POST /email/change: asks to move the caller's account to another address (ASVS V7.5.1). Only a
 * person signed in with a bearer token may (an API key acts for someone, it does not prove who they
 * are), and only with their current password, checked through the login throttle as a password change
 * checks it, so a stolen token alone takes nothing. Nothing changes yet: the new address is sent a
 * link (confirm-email-change.ts), and the account keeps its address until the link is used.
 */
export class RequestEmailChange {
  constructor(private readonly deps: RequestEmailChangeDeps) {}

  async execute(caller: Principal, input: RequestEmailChangeInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { repos, unitOfWork, hasher, secrets, throttle, postbox, emailTokens, trail, changeTtlSeconds } = this.deps;
    if (caller.method !== 'jwt') throw new SignInRequired();
    if (!postbox.enabled) throw new MailNotConfigured();
    const user = await repos.users.findById(caller.tenantId, caller.userId);
    if (!user) throw callerGone(caller);
    const newEmail = normalizeEmail(input.newEmail);
    if (newEmail === user.email) throw new EmailUnchanged();

    await proveOwnPassword({ hasher, secrets, throttle }, user, input.currentPassword, origin, () => new CurrentPasswordIncorrect());
    // Asked only once the password is proven, so a stolen token cannot probe which addresses exist.
    if (await repos.users.findByEmail(newEmail)) throw new EmailAlreadyRegistered();

    await unitOfWork.run(async (tx) => {
      // The password was checked against the member as read before scrypt. A reset or change that
      // committed since (it raises the auth version, and voids pending address changes) wins: the
      // link is not made. Held to commit, so one committing after waits and then voids this link.
      const held = await tx.users.holdAuthState(user.tenantId, user.id);
      if (!held) throw callerGone(caller);
      if (held.authVersion !== user.authVersion) throw new CurrentPasswordIncorrect();
      const tenant = await tx.tenants.findById(user.tenantId);
      if (!tenant) throw callerGone(caller);
      // The token names the new address; a newer request voids the older link.
      const token = await emailTokens.issue(tx, {
        tenantId: user.tenantId, userId: user.id, email: newEmail, purpose: 'email_change', ttlSeconds: changeTtlSeconds,
      });
      await postbox.post(tx, {
        tenantId: user.tenantId, userId: user.id,
        mail: { kind: 'email-change-confirm', input: { to: newEmail, tenantName: tenant.name, token, validHours: Math.ceil(changeTtlSeconds / 3600) } },
      }, origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: caller, action: 'email.change_requested', targetId: user.id, details: { new_email: newEmail },
      }));
    });
  }
}
