import { AuditTrail } from '../application/audit-trail';
import { Authenticate } from '../application/authenticate';
import { ChangeMemberRole } from '../application/change-member-role';
import { ChangePassword } from '../application/change-password';
import { CreateApiKey } from '../application/create-api-key';
import { InviteUser } from '../application/invite-user';
import { ListApiKeys } from '../application/list-api-keys';
import { ListAuditEvents } from '../application/list-audit-events';
import { ListInvites } from '../application/list-invites';
import { ListMembers } from '../application/list-members';
import { Login } from '../application/login';
import type { ApiKeyUsage } from '../application/ports/api-key-usage';
import type { Clock } from '../application/ports/clock';
import type { CredentialStates } from '../application/ports/credential-states';
import type { IdGenerator } from '../application/ports/ids';
import type { LoginThrottle } from '../application/ports/login-throttle';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { Secrets } from '../application/ports/secrets';
import type { TokenService } from '../application/ports/token-service';
import { RecordRefusal } from '../application/record-refusal';
import { RemoveMember } from '../application/remove-member';
import { RevokeApiKey } from '../application/revoke-api-key';
import { RevokeInvite } from '../application/revoke-invite';
import { Signup } from '../application/signup';
import type { UseCases } from '../application/use-cases';
import type { ModuleAuditAction } from '../domain/audit-event';
import { CachedCredentialStates } from '../adapters/cache/cached-credential-states';
import { ThrottledApiKeyUsage } from '../adapters/cache/throttled-api-key-usage';
import type { Storage } from '../adapters/persistence/storage';

export interface Services {
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Failed logins per account: Redis when REDIS_URL is set (instances share the counts), else in process. */
  readonly loginThrottle: LoginThrottle;
  /**
   * The instance's view of members and keys for authentication. Unset: a cache over the storage
   * that only this process invalidates, right for one instance (memory, PGlite). With Postgres,
   * main passes the one its change feed keeps current (change-feed.ts).
   */
  readonly credentials?: CredentialStates | undefined;
  /** Where last_used_at is kept; unset: throttled writes to the storage. */
  readonly keyUsage?: ApiKeyUsage | undefined;
  /** Failures of work done off a request's path (last_used_at writes); console.error when unset. */
  readonly onBackgroundError?: ((error: unknown) => void) | undefined;
}

export interface Policy {
  readonly inviteTtlSeconds: number;
  /** The product modules' audit actions (PortcullisModule.auditActions), so the trail's filter knows them. */
  readonly moduleAuditActions?: readonly ModuleAuditAction[];
}

/**
 * The composition root's core: every use-case built from one storage backend and one set of
 * services. main and the tests call this same function, so tests exercise the real wiring.
 */
export async function buildUseCases(storage: Storage, services: Services, policy: Policy): Promise<UseCases> {
  const { repos, unitOfWork } = storage;
  const { hasher, tokens, ids, secrets, clock, loginThrottle } = services;
  const credentials = services.credentials ?? new CachedCredentialStates(repos);
  const onBackgroundError = services.onBackgroundError ?? ((error: unknown) => console.error('api key usage:', error));
  const keyUsage = services.keyUsage ?? new ThrottledApiKeyUsage(repos.apiKeys, onBackgroundError);
  // Made once at start so that a login for an unknown e-mail costs one real verification too.
  const dummyHash = await hasher.hash(secrets.randomHex(32));
  const trail = new AuditTrail({ ids, clock });
  const auditEvents = repos.auditEvents;
  return {
    signup: new Signup({ repos, unitOfWork, hasher, tokens, ids, secrets, clock, trail }),
    login: new Login({ users: repos.users, hasher, tokens, secrets, throttle: loginThrottle, dummyHash, auditEvents, trail }),
    authenticate: new Authenticate({ credentials, keyUsage, tokens, secrets, clock }),
    createApiKey: new CreateApiKey({ unitOfWork, trail, ids, secrets, clock }),
    listApiKeys: new ListApiKeys({ apiKeys: repos.apiKeys }),
    revokeApiKey: new RevokeApiKey({ unitOfWork, credentials, trail }),
    inviteUser: new InviteUser({ unitOfWork, trail, ids, secrets, clock, inviteTtlSeconds: policy.inviteTtlSeconds }),
    listInvites: new ListInvites({ invites: repos.invites, clock }),
    revokeInvite: new RevokeInvite({ unitOfWork, trail }),
    listMembers: new ListMembers({ users: repos.users }),
    changeMemberRole: new ChangeMemberRole({ unitOfWork, credentials, trail }),
    removeMember: new RemoveMember({ unitOfWork, credentials, clock, trail }),
    changePassword: new ChangePassword({
      repos, unitOfWork, hasher, tokens, secrets, throttle: loginThrottle, credentials, trail,
    }),
    listAuditEvents: new ListAuditEvents({ auditEvents, moduleActions: policy.moduleAuditActions }),
    recordRefusal: new RecordRefusal({ auditEvents, trail }),
  };
}
