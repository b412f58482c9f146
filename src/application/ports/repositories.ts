import type { ApiKey } from '../../domain/api-key';
import type { Invite } from '../../domain/invite';
import type { Role } from '../../domain/role';
import type { Tenant } from '../../domain/tenant';
import type { User } from '../../domain/user';

export interface TenantRepository {
  /** Inserts a new tenant. Ids and slugs are fresh, so a conflict is a storage failure and is thrown as is. */
  create(tenant: Tenant): Promise<void>;
  /** The tenant, or null when there is none with that id. */
  findById(id: string): Promise<Tenant | null>;
}

export interface UserRepository {
  /** Inserts a new user. Throws EmailAlreadyRegistered when the (normalised) e-mail is taken. */
  create(user: User): Promise<void>;
  /** Global lookup by normalised e-mail (login and signup need it); null when nobody has it. */
  findByEmail(email: string): Promise<User | null>;
  /** The user of that tenant with that id; null when unknown or in another tenant. */
  findById(tenantId: string, userId: string): Promise<User | null>;
  /** Replaces the user's password hash; does nothing when there is no such user in that tenant. */
  updatePasswordHash(tenantId: string, userId: string, passwordHash: string): Promise<void>;
}

/** What an API key request acts as: the key's tenant and user, with the owner's current role. */
export interface ActiveApiKey {
  readonly keyId: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly role: Role;
}

export interface ApiKeyRepository {
  /** Inserts a new key. Throws as is on a duplicate hash (random keys make one a failure, not a rule). */
  create(key: ApiKey): Promise<void>;
  /**
   * The non-revoked key with that lookup prefix and SHA-256 hash, joined to its owner's current role;
   * null when there is none (unknown, revoked, or its owner gone).
   */
  findActiveByHash(keyPrefix: string, keyHash: string): Promise<ActiveApiKey | null>;
}

export interface InviteRepository {
  /** Inserts a new invite. Throws as is on a duplicate token (random tokens make one a failure). */
  create(invite: Invite): Promise<void>;
  /** Global lookup by token, whatever the invite's state; null when no invite has that token. */
  findByToken(token: string): Promise<Invite | null>;
  /**
   * Consumes the tenant's invite once: sets accepted_at only if it is still null and the invite has
   * not expired at `now`. Returns false when another signup got there first (or it has expired
   * since), or when that tenant has no invite with that id.
   */
  markAccepted(tenantId: string, inviteId: string, now: Date): Promise<boolean>;
  /** The tenant's pending invites (not accepted, expires_at after `now`), newest created first. */
  listPending(tenantId: string, now: Date): Promise<Invite[]>;
  /**
   * Deletes the tenant's invite with that id if it has not been accepted (expired ones included).
   * Returns false when there is no such invite in that tenant, or it was accepted.
   */
  deleteUnaccepted(tenantId: string, inviteId: string): Promise<boolean>;
}

export interface Repositories {
  readonly tenants: TenantRepository;
  readonly users: UserRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly invites: InviteRepository;
}
