import { AuditTrail } from '../application/audit/audit-trail';
import { Authenticate } from '../application/authentication/authenticate';
import { AuthenticateService } from '../application/authentication/authenticate-service';
import { ChangeMemberRole } from '../application/members/change-member-role';
import { ChangePassword } from '../application/members/change-password';
import { CreateApiKey } from '../application/api-keys/create-api-key';
import { Introspect } from '../application/authentication/introspect';
import { InviteUser } from '../application/invites/invite-user';
import { ListApiKeys } from '../application/api-keys/list-api-keys';
import { ListAuditEvents } from '../application/audit/list-audit-events';
import { ListInvites } from '../application/invites/list-invites';
import { ListMembers } from '../application/members/list-members';
import { Login } from '../application/login/login';
import type { ApiKeyUsage } from '../application/ports/api-key-usage';
import type { ChangePositions } from '../application/ports/change-positions';
import type { Clock } from '../application/ports/clock';
import type { CredentialChangeFeed } from '../application/ports/credential-change-feed';
import type { CredentialStates } from '../application/ports/credential-states';
import type { IdGenerator } from '../application/ports/ids';
import type { LoginThrottle } from '../application/ports/login-throttle';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { Secrets } from '../application/ports/secrets';
import type { ServiceKeyLookup } from '../application/ports/service-keys';
import type { TokenService } from '../application/ports/token-service';
import { RecordRefusal } from '../application/audit/record-refusal';
import { RemoveMember } from '../application/members/remove-member';
import { RevokeApiKey } from '../application/api-keys/revoke-api-key';
import { RevokeInvite } from '../application/invites/revoke-invite';
import { Signup } from '../application/signup/signup';
import type { UseCases } from '../application/use-cases';
import type { ModuleAuditAction } from '../domain/audit-event';
import { BatchedApiKeyUsage } from '../adapters/cache/batched-api-key-usage';
import { CredentialChangeFanOut } from '../adapters/cache/credential-change-fan-out';
import { MemoryServiceKeys } from '../adapters/persistence/memory/memory-service-keys';
import type { Storage } from '../adapters/persistence/storage';
import { localCredentialFeed } from './change-feed';

export interface Services {
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Failed logins per account: Redis when REDIS_URL is set (instances share the counts), else in process. */
  readonly loginThrottle: LoginThrottle;
  /**
   * The instance's view of members and keys for authentication. Either way the units of work of
   * this process make it forget what they changed (see below). Unset: a cache over the storage that
   * hears nothing else, right for memory storage and tests; main passes the one its change feed
   * keeps current with every writer's changes (change-feed.ts).
   */
  readonly credentials?: CredentialStates | undefined;
  /**
   * The changes the instance applies, for verifying services' change streams and the trusted
   * service keys. Given with `credentials` (change-feed.ts makes both). Credentials given without
   * it: the feed refuses every subscriber, since nothing would reach them.
   */
  readonly credentialChanges?: CredentialChangeFeed | undefined;
  /**
   * How far the instance has followed the change log, for introspection answers. Given with
   * `credentials` (change-feed.ts makes both); without it, introspection answers position 0, which
   * no verifier takes for a fresh answer once it has heard a change.
   */
  readonly changePositions?: ChangePositions | undefined;
  /** Where service keys are looked up; unset: none exist, and every service is refused. */
  readonly serviceKeys?: ServiceKeyLookup | undefined;
  /**
   * Where last_used_at is kept; unset: batched writes to the storage, which nobody flushes at exit
   * (main passes its own and closes it at shutdown).
   */
  readonly keyUsage?: ApiKeyUsage | undefined;
  /** Failures of work done off a request's path (last_used_at writes); console.error when unset. */
  readonly onBackgroundError?: ((error: unknown) => void) | undefined;
}

export interface Policy {
  readonly inviteTtlSeconds: number;
  /** INVITE_REQUIRE_EMAIL_MATCH: a signup must use the invited address. Off unless set. */
  readonly inviteRequireEmailMatch?: boolean;
  /**
   * How long a verified service key is trusted before storage is read again, at most: a revocation
   * the instance reads from the change log ends the trust at once.
   */
  readonly serviceKeyTrustMs?: number | undefined;
  /** The product modules' audit actions (PortcullisModule.auditActions), so the trail's filter knows them. */
  readonly moduleAuditActions?: readonly ModuleAuditAction[];
}

export const DEFAULT_SERVICE_KEY_TRUST_MS = 5_000;

/** Positions of an instance that follows no change log. */
const NOT_FOLLOWING: ChangePositions = { current: 0, reach: async () => 0 };

/**
 * The composition root's core: every use-case built from one storage backend and one set of
 * services. main and the tests call this same function, so tests exercise the real wiring.
 */
export async function buildUseCases(storage: Storage, services: Services, policy: Policy): Promise<UseCases> {
  const { repos, unitOfWork } = storage;
  const { hasher, tokens, ids, secrets, clock, loginThrottle } = services;
  const local = services.credentials ? undefined : await localCredentialFeed(storage);
  const credentials = services.credentials ?? local!.credentials;
  const credentialChanges = services.credentialChanges ?? local?.changes ?? new CredentialChangeFanOut(false);
  const positions = services.changePositions ?? local?.positions ?? NOT_FOLLOWING;
  // The one place this instance forgets what it changed: right after each unit of work commits.
  storage.afterCommit((changes) => {
    for (const change of changes) credentials.forget(change);
  });
  const onBackgroundError = services.onBackgroundError ?? ((error: unknown) => console.error('api key usage:', error));
  const keyUsage = services.keyUsage ?? new BatchedApiKeyUsage(repos.apiKeys, clock, onBackgroundError);
  // Made once at start so that a login for an unknown e-mail costs one real verification too.
  const dummyHash = await hasher.hash(secrets.randomHex(32));
  const trail = new AuditTrail({ ids, clock });
  const auditEvents = repos.auditEvents;
  const authenticate = new Authenticate({ credentials, keyUsage, tokens, secrets, clock });
  const serviceKeys = services.serviceKeys ?? new MemoryServiceKeys();
  const authenticateService = new AuthenticateService({
    serviceKeys, secrets, clock, trustForMs: policy.serviceKeyTrustMs ?? DEFAULT_SERVICE_KEY_TRUST_MS,
  });
  // A service key revoked or re-scoped is no longer trusted from the moment the change is applied.
  credentialChanges.watch(authenticateService);
  return {
    signup: new Signup({ repos, unitOfWork, hasher, tokens, ids, secrets, clock, trail, inviteRequiresEmailMatch: policy.inviteRequireEmailMatch }),
    login: new Login({ users: repos.users, hasher, tokens, secrets, throttle: loginThrottle, dummyHash, auditEvents, trail }),
    authenticate,
    createApiKey: new CreateApiKey({ unitOfWork, trail, ids, secrets, clock }),
    listApiKeys: new ListApiKeys({ apiKeys: repos.apiKeys }),
    revokeApiKey: new RevokeApiKey({ unitOfWork, trail }),
    inviteUser: new InviteUser({ unitOfWork, trail, ids, secrets, clock, inviteTtlSeconds: policy.inviteTtlSeconds }),
    listInvites: new ListInvites({ invites: repos.invites, clock }),
    revokeInvite: new RevokeInvite({ unitOfWork, trail }),
    listMembers: new ListMembers({ users: repos.users }),
    changeMemberRole: new ChangeMemberRole({ unitOfWork, trail }),
    removeMember: new RemoveMember({ unitOfWork, clock, trail }),
    changePassword: new ChangePassword({ repos, unitOfWork, hasher, tokens, secrets, throttle: loginThrottle, trail }),
    listAuditEvents: new ListAuditEvents({ auditEvents, moduleActions: policy.moduleAuditActions }),
    recordRefusal: new RecordRefusal({ auditEvents, trail }),
    authenticateService,
    introspect: new Introspect({ authenticate, credentials, tokens, secrets, positions }),
    credentialChanges,
  };
}
