import { InvalidCredentials, TooManyFailedLogins } from '../domain/errors';
import { normalizeEmail } from '../domain/email';
import type { LoginThrottle } from './ports/login-throttle';
import type { PasswordHasher } from './ports/password-hasher';
import type { UserRepository } from './ports/repositories';
import type { Secrets } from './ports/secrets';
import type { TokenService } from './ports/token-service';

export interface LoginInput {
  readonly email: string;
  readonly password: string;
}

export interface LoginResult {
  readonly token: string;
  readonly expiresIn: string;
}

export interface LoginDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  /** For the throttle's account key: the SHA-256 of the normalised e-mail, never the address. */
  readonly secrets: Secrets;
  /** Failed attempts per account, across every client address. */
  readonly throttle: LoginThrottle;
  /**
   * A hash of a throwaway password, made at start: an unknown e-mail is verified against it so that
   * it costs as much time as a known one and the answer's timing does not tell which e-mails exist.
   */
  readonly dummyHash: string;
}

export class Login {
  constructor(private readonly deps: LoginDeps) {}

  /**
   * The throttle is asked first, before the user is looked up or the password verified, so a
   * throttled account is refused whatever the password (a right guess during the throttle is not
   * revealed) and the same for known and unknown e-mails (it does not reveal which accounts exist).
   * Only a success wipes the count, so what stays counted is failures.
   */
  async execute(input: LoginInput): Promise<LoginResult> {
    const { users, hasher, tokens, secrets, throttle, dummyHash } = this.deps;
    const email = normalizeEmail(input.email);
    const accountKey = secrets.sha256Hex(email);
    const decision = await throttle.recordAttempt(accountKey);
    if (!decision.allowed) throw new TooManyFailedLogins(decision.retryAfterSeconds);

    const user = await users.findByEmail(email);
    const matches = await hasher.verify(input.password, user?.passwordHash ?? dummyHash);
    if (!user || !matches) throw new InvalidCredentials();
    await throttle.reset(accountKey);
    // The only moment the plain password is at hand: renew a hash made at older scrypt parameters.
    if (hasher.needsRehash(user.passwordHash)) {
      await users.updatePasswordHash(user.tenantId, user.id, await hasher.hash(input.password));
    }
    const token = tokens.issue({
      tenantId: user.tenantId, userId: user.id, email: user.email, role: user.role, authVersion: user.authVersion,
    });
    return { token, expiresIn: tokens.expiresIn };
  }
}
