import { InvalidCredentials } from '../domain/errors';
import { normalizeEmail } from '../domain/email';
import type { PasswordHasher } from './ports/password-hasher';
import type { UserRepository } from './ports/repositories';
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
  /**
   * A hash of a throwaway password, made at start: an unknown e-mail is verified against it so that
   * it costs as much time as a known one and the answer's timing does not tell which e-mails exist.
   */
  readonly dummyHash: string;
}

export class Login {
  constructor(private readonly deps: LoginDeps) {}

  async execute(input: LoginInput): Promise<LoginResult> {
    const { users, hasher, tokens, dummyHash } = this.deps;
    const email = normalizeEmail(input.email);
    const user = await users.findByEmail(email);
    const matches = await hasher.verify(input.password, user?.passwordHash ?? dummyHash);
    if (!user || !matches) throw new InvalidCredentials();
    const token = tokens.issue({ tenantId: user.tenantId, userId: user.id, email: user.email, role: user.role });
    return { token, expiresIn: tokens.expiresIn };
  }
}
