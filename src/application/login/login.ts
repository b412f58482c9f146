import { InvalidCredentials, SecondFactorRequired, TooManyFailedLogins } from '../../domain/errors';
import { normalizeEmail } from '../../domain/email';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { AuditEventRepository } from '../ports/audit-events';
import type { Clock } from '../ports/clock';
import type { DeviceProof, DeviceProofs } from '../ports/device-proofs';
import type { LoginAttempt, LoginThrottle } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories, UserRepository } from '../ports/repositories';
import type { EmailTokens } from '../mail/email-tokens';
import type { SecondFactors } from '../mfa/second-factors';
import { postNewSignInNotice } from './new-sign-in-notice';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import type { User } from '../../domain/user';
import { PASSWORD_AMR } from '../../domain/second-factor';
import { ssoRequiringTenant } from '../sso/sso-required';

export interface LoginInput {
  readonly email: string;
  readonly password: string;
  /** The device proof the client was given at an earlier sign-in, if it sent one back. */
  readonly deviceProof?: string | undefined;
}

export interface LoginResult {
  readonly token: string;
  readonly expiresIn: string;
  /** The client's proof of this device for later sign-ins: refreshed for the same device when it sent a valid one. */
  readonly deviceProof: DeviceProof;
}

export interface LoginDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  /** For the throttle's account key: the SHA-256 of the normalised e-mail, never the address. */
  readonly secrets: Secrets;
  /** Failed attempts per account and client address, and per account across every address. */
  readonly throttle: LoginThrottle;
  /** Which devices have signed in to an account before: each has an allowance of its own in the throttle. */
  readonly deviceProofs: DeviceProofs;
  /**
   * A hash of a throwaway password, made at start: an unknown e-mail is verified against it so that
   * it costs as much time as a known one and the answer's timing does not tell which e-mails exist.
   */
  readonly dummyHash: string;
  readonly auditEvents: AuditEventRepository;
  readonly trail: AuditTrail;
  /** The success, the session it starts and, from a device the account has not seen, its notice are written together. */
  readonly unitOfWork: UnitOfWork;
  readonly sessions: SessionBook;
  /** Where the "new sign-in" notice goes. */
  readonly postbox: Postbox;
  readonly clock: Clock;
  /** Whether the member has a second factor, and which kinds (the answer lists them). */
  readonly secondFactors: SecondFactors;
  readonly repos: Repositories;
  /** The mfa_token's store: a one-use token of purpose `mfa_sign_in`. */
  readonly emailTokens: EmailTokens;
}

/** How long the mfa_token between the password and the second factor lives. */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;

export class Login {
  constructor(private readonly deps: LoginDeps) {}

  /**
   * The throttle is asked first, before the user is looked up or the password verified, so a
   * throttled account is refused whatever the password (a right guess during the throttle is not
   * revealed) and the same for known and unknown e-mails (it does not reveal which accounts exist).
   * Only a success takes its attempt back, so what stays counted is failures.
   *
   * A valid device proof for this account moves the attempt to that device's own count (ASVS 5.0
   * V6.3.1): guessing from elsewhere cannot lock out a device that signed in before, and the device
   * still gets no more guesses than one address does. An invalid, expired or other account's proof
   * is ignored: the attempt is counted as one without a proof. Checking it reads nothing stored, so
   * it tells nothing of whether the account exists.
   *
   * A success without a valid proof for this account is a device the account has not seen (or one
   * that dropped its proof): the member is told (ASVS 5.0 V6.3.5), in the same unit of work as the
   * audit event. The proof issued with it makes that device's next sign-in a known one, so a device
   * that keeps its proof is the subject of one notice. Signup issues a proof too: the device an
   * account was made on is known from the start (docs/security.md, "New sign-in notices").
   */
  async execute(input: LoginInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<LoginResult> {
    const { users, hasher, tokens, secrets, throttle, dummyHash } = this.deps;
    const email = normalizeEmail(input.email);
    const accountKey = secrets.sha256Hex(email);
    const device = input.deviceProof === undefined ? null : this.deps.deviceProofs.verify(input.deviceProof, accountKey);
    const attempt: LoginAttempt = { accountKey, clientAddress: origin.clientAddress, ...(device === null ? {} : { device }) };
    const decision = await throttle.recordAttempt(attempt);
    if (!decision.allowed) {
      await this.recordFailure(origin, await users.findByEmail(email), 'throttled');
      throw new TooManyFailedLogins(decision.retryAfterSeconds);
    }

    const found = await users.findByEmail(email);
    const matches = await hasher.verify(input.password, found?.passwordHash ?? dummyHash);
    // Asked for every address, known or not, right or wrong password: a refusal by policy costs what
    // a wrong password does, and the answer is the same (no oracle of the policy or the password).
    const ssoTenant = await ssoRequiringTenant(this.deps.repos, email);
    if (found && ssoTenant === found.tenantId) {
      await this.recordFailure(origin, found, 'sso_required');
      throw new InvalidCredentials();
    }
    if (!found || !matches) {
      await this.recordFailure(origin, found, 'invalid_credentials');
      throw new InvalidCredentials();
    }
    const verifiedHash = await this.renewHash(found, input.password);
    // The member as they stand after the slow work: the token carries the role and auth version of
    // now, and a password changed meanwhile means the one given is no longer theirs.
    const user = await users.findById(found.tenantId, found.id);
    if (!user || user.passwordHash !== verifiedHash) {
      await this.recordFailure(origin, found, 'invalid_credentials');
      throw new InvalidCredentials();
    }
    await throttle.recordSuccess(attempt);
    await this.requireNoSecondFactor(user);
    const succeeded = this.deps.trail.event(origin, {
      tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'login.succeeded', targetId: user.id,
    });
    const sessionId = await this.deps.unitOfWork.run(async (tx) => {
      await tx.auditEvents.append(succeeded);
      if (device === null) await postNewSignInNotice(this.deps.postbox, this.deps.clock, tx, user, succeeded, origin);
      return this.deps.sessions.start(tx, { tenantId: user.tenantId, userId: user.id }, 'login', origin);
    });
    const token = tokens.issue({
      tenantId: user.tenantId, userId: user.id, email: user.email, role: user.role, authVersion: user.authVersion, sessionId, amr: PASSWORD_AMR,
      ...await enrollmentClaim(this.deps.repos, user.tenantId, PASSWORD_AMR),
    });
    return { token, expiresIn: tokens.expiresIn, deviceProof: this.deps.deviceProofs.issue(accountKey, device ?? undefined) };
  }

  /**
   * A member with a second factor is not signed in by the password alone: the answer is a refusal
   * carrying an mfa_token (5 minutes, one use, good for POST /login/mfa only) and the kinds they
   * have. No session, audit event or notice yet: those come with the full sign-in (CompleteSignIn).
   */
  private async requireNoSecondFactor(user: User): Promise<void> {
    const owner = { tenantId: user.tenantId, userId: user.id };
    const methods = await this.deps.secondFactors.methodsOf(this.deps.repos, owner);
    if (methods.length === 0) return;
    const mfaToken = await this.deps.unitOfWork.run((tx) => this.deps.emailTokens.issue(tx, {
      ...owner, email: user.email, purpose: 'mfa_sign_in', ttlSeconds: MFA_TOKEN_TTL_SECONDS,
    }));
    throw new SecondFactorRequired(methods, mfaToken);
  }

  /**
   * The only moment the plain password is at hand: a hash made at older scrypt parameters is made
   * again, and stored only while the old one still is (a password change in between wins). Returns
   * the hash the stored one must now be for the password to still be this user's.
   */
  private async renewHash(user: User, password: string): Promise<string> {
    const { users, hasher } = this.deps;
    if (!hasher.needsRehash(user.passwordHash)) return user.passwordHash;
    const renewed = await hasher.hash(password);
    return (await users.updatePasswordHash(user.tenantId, user.id, { from: user.passwordHash, to: renewed })) ? renewed : user.passwordHash;
  }

  /**
   * A failure for a known e-mail goes to that tenant's trail (the account under attack); for an
   * unknown one there is no tenant, and the event is kept without one. Nobody is the actor: who
   * tried is not known, only from where.
   */
  private async recordFailure(origin: RequestOrigin, user: { id: string; tenantId: string } | null, reason: string): Promise<void> {
    await this.deps.auditEvents.append(this.deps.trail.event(origin, {
      tenantId: user?.tenantId ?? null,
      actor: { userId: null, method: 'none' },
      action: 'login.failed',
      targetId: user?.id ?? null,
      details: { reason },
    }));
  }
}
