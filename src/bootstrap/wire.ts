import { Authenticate } from '../application/authenticate';
import { CreateApiKey } from '../application/create-api-key';
import { InviteUser } from '../application/invite-user';
import { ListInvites } from '../application/list-invites';
import { Login } from '../application/login';
import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/ids';
import type { LoginThrottle } from '../application/ports/login-throttle';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { Secrets } from '../application/ports/secrets';
import type { TokenService } from '../application/ports/token-service';
import { RevokeInvite } from '../application/revoke-invite';
import { Signup } from '../application/signup';
import type { UseCases } from '../application/use-cases';
import type { Storage } from '../adapters/persistence/storage';

export interface Services {
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Failed logins per account: Redis when REDIS_URL is set (instances share the counts), else in process. */
  readonly loginThrottle: LoginThrottle;
}

export interface Policy {
  readonly inviteTtlSeconds: number;
}

/**
 * The composition root's core: every use-case built from one storage backend and one set of
 * services. main and the tests call this same function, so tests exercise the real wiring.
 */
export async function buildUseCases(storage: Storage, services: Services, policy: Policy): Promise<UseCases> {
  const { repos, unitOfWork } = storage;
  const { hasher, tokens, ids, secrets, clock, loginThrottle } = services;
  // Made once at start so that a login for an unknown e-mail costs one real verification too.
  const dummyHash = await hasher.hash(secrets.randomHex(32));
  return {
    signup: new Signup({ repos, unitOfWork, hasher, tokens, ids, secrets, clock }),
    login: new Login({ users: repos.users, hasher, tokens, secrets, throttle: loginThrottle, dummyHash }),
    authenticate: new Authenticate({ apiKeys: repos.apiKeys, tokens, secrets }),
    createApiKey: new CreateApiKey({ apiKeys: repos.apiKeys, ids, secrets, clock }),
    inviteUser: new InviteUser({ invites: repos.invites, ids, secrets, clock, inviteTtlSeconds: policy.inviteTtlSeconds }),
    listInvites: new ListInvites({ invites: repos.invites, clock }),
    revokeInvite: new RevokeInvite({ invites: repos.invites }),
  };
}
