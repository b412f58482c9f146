import type { ApiKey } from '../../domain/api-key';
import type { EmailToken, EmailTokenPurpose } from '../../domain/email-token';
import type { Passkey, PasskeyChallenge, PasskeyChallengePurpose, PasskeySignInCeremony } from '../../domain/passkey';
import type { ClaimedMail, MailOutcome, OutgoingMail } from '../../domain/outgoing-mail';
import type { AuditEventRepository } from './audit-events';
import type {
  SsoConnectionRepository, SsoDomainRepository, SsoIdentityRepository, SsoSignInRepository,
} from './sso-repositories';
import type { SigningKeyRecordRepository } from './signing-key-records';
import type { Invite, InviteSummary } from '../../domain/invite';
import type { Session, SessionEnding } from '../../domain/session';
import type { MfaPolicy, RecoveryCode, TotpFactor } from '../../domain/second-factor';
import type { InvitableRole, Role } from '../../domain/role';
import type { Tenant } from '../../domain/tenant';
import type { User } from '../../domain/user';

export interface TenantRepository {
  /**
   * Inserts a new tenant and answers true; answers false, writing nothing, when another tenant
   * already has its slug (the random suffix came up twice), and the surrounding unit of work goes
   * on as if the call had not been made, so the caller can try another slug. Any other conflict
   * (an id that exists) is a storage failure and is thrown as is.
   */
  create(tenant: Tenant): Promise<boolean>;
  /** The tenant, or null when there is none with that id. */
  findById(id: string): Promise<Tenant | null>;
  /** Across tenants: the id of the tenant with exactly that slug; null when none has it. */
  findIdBySlug(slug: string): Promise<string | null>;
  /**
   * Serialises changes to the tenant's members: inside a unit of work, holds the tenant's row lock
   * until the work ends, so a second change of the same tenant waits and then reads the first one's
   * result. Returns false when there is no such tenant. Outside a unit of work it protects nothing.
   * It does not hold back work that only adds rows naming the tenant (a signup, an invite, a key).
   */
  lockMembership(tenantId: string): Promise<boolean>;
  /** The tenant's second-factor policy; null when there is no such tenant. */
  mfaPolicy(tenantId: string): Promise<MfaPolicy | null>;
  /** Sets the tenant's second-factor policy; false when there is no such tenant. */
  setMfaPolicy(tenantId: string, policy: MfaPolicy): Promise<boolean>;
}

export interface UserRepository {
  /** Inserts a new user. Throws EmailAlreadyRegistered when the (normalised) e-mail is taken. */
  create(user: User): Promise<void>;
  /** Global lookup by normalised e-mail (login and signup need it); null when no member has it. */
  findByEmail(email: string): Promise<User | null>;
  /** The member of that tenant with that id; null when unknown, removed, or in another tenant. */
  findById(tenantId: string, userId: string): Promise<User | null>;
  /**
   * What authentication needs of a member: role and auth version. Null when unknown, removed, or
   * in another tenant (a token naming a tenant and user that do not go together).
   */
  findAuthState(tenantId: string, userId: string): Promise<UserAuthState | null>;
  /**
   * The member's auth state, as findAuthState, and inside a unit of work a hold on it until the work
   * ends: a change of the member's role or password, or their removal, waits for the work to commit,
   * and one committed before is what this returns. Null when not a member. Concurrent holds of one
   * member do not wait for each other. Outside a unit of work it only reads.
   */
  holdAuthState(tenantId: string, userId: string): Promise<UserAuthState | null>;
  /** The tenant's members (removed ones excluded), oldest first. */
  listMembers(tenantId: string): Promise<User[]>;
  /** How many owners the tenant has (removed ones excluded). */
  countOwners(tenantId: string): Promise<number>;
  /**
   * Replaces the hash after a rehash at new parameters (same password): the auth version stays, so
   * no session ends. Only while the stored hash is still `change.from`, so a rehash can never undo a
   * password change that committed after the password was verified. False when nothing changed (no
   * such member in that tenant, or another hash is stored).
   */
  updatePasswordHash(tenantId: string, userId: string, change: PasswordHashChange): Promise<boolean>;
  /**
   * The changes below end the member's sessions: each raises the auth version. Each changes nothing,
   * and answers false or null, when there is no such member in that tenant. (Every instance learns of
   * a committed change from the storage itself: see Storage.afterCommit and migration 0005.)
   */
  changeRole(tenantId: string, userId: string, role: Role): Promise<boolean>;
  /** Raises the auth version alone: every token issued to the member before is refused (a policy that now requires what they lack). */
  raiseAuthVersion(tenantId: string, userId: string): Promise<boolean>;
  /**
   * Sets a new password only while the stored hash is still `change.from` (the one the caller's
   * current password was verified against), and returns the member as stored after the change: a
   * token issued now must carry that role and auth version, whatever changed while the hashes were
   * being made. Null when the member is gone or another password was set meanwhile.
   */
  changePassword(tenantId: string, userId: string, change: PasswordHashChange): Promise<User | null>;
  /**
   * Marks the member removed: the row stays (keys and invites still name it) but no lookup finds it
   * any more, and its e-mail address is free to register again.
   */
  markRemoved(tenantId: string, userId: string, at: Date): Promise<boolean>;
  /**
   * Records that the member proved they read `email`, only while that is still their address (a
   * token sent to an address they have since left proves nothing). Keeps an earlier time. False
   * when not a member or the address differs.
   */
  markEmailVerified(tenantId: string, userId: string, email: string, at: Date): Promise<boolean>;
  /** When the member's current address was proven; null when never, or not a member. */
  emailVerifiedAt(tenantId: string, userId: string): Promise<Date | null>;
  /**
   * Moves the member from address `change.from` to `change.to`, proven at `verifiedAt`, only while
   * `from` is still their address, and ends their sessions (raises the auth version: tokens carry the
   * address). Returns the member as stored after; null when not a member or the address differs.
   * Throws EmailAlreadyRegistered when `to` is taken.
   */
  changeEmail(tenantId: string, userId: string, change: { readonly from: string; readonly to: string }, verifiedAt: Date): Promise<User | null>;
}

/** Tokens sent by e-mail (domain/email-token.ts). */
export interface EmailTokenRepository {
  /** Inserts a new token. Throws as is on a duplicate hash (random tokens make one a failure). */
  create(token: EmailToken): Promise<void>;
  /** Global lookup by SHA-256 hash, whatever the token's state; null when unknown. */
  findByHash(tokenHash: string): Promise<EmailToken | null>;
  /**
   * Uses the tenant's token once: sets used_at only while it is unused and unexpired at `now`.
   * False when another request used it first, it was voided, it expired, or there is no such token.
   */
  consume(tenantId: string, tokenId: string, now: Date): Promise<boolean>;
  /** Voids the member's unused tokens of that purpose (a newer one is coming, or the password changed); returns how many. */
  voidUnused(tenantId: string, userId: string, purpose: EmailTokenPurpose, at: Date): Promise<number>;
}

/**
 * The outbox. A message is enqueued inside the unit of work that causes it, so it exists exactly
 * when the change committed; workers on any instance claim and finish it. A claim is a lease: a
 * claimed message is not claimed again until the lease ends (the worker that held it died), and
 * an attempt is finished only by the claim that made it.
 */
export interface MailOutboxRepository {
  /** Adds a message, due at once. Ids are fresh, so a conflict is a storage failure and is thrown as is. */
  enqueue(mail: OutgoingMail): Promise<void>;
  /**
   * Claims up to `limit` due messages (pending, next attempt at or before `now`, no live lease),
   * oldest due first, counts the attempt and leases each until `leaseUntil`. Concurrent claims, on
   * any instance, never return the same message while a lease lives.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]>;
  /**
   * Ends the attempt `attempt` of the message: sent or failed for good (the input, which may hold a
   * token, is wiped), or pending again from `nextAttemptAt`. False, changing nothing, when the
   * message is no longer at that attempt (its lease ended and another claim took it) or finished.
   */
  finish(mailId: string, attempt: number, outcome: MailOutcome): Promise<boolean>;
  /** Drops messages sent or failed before `before` (pending ones stay whatever their age); returns how many. */
  pruneFinished(before: Date): Promise<number>;
}

/** A stored hash replaced by another, on condition that it is still the one stored. */
export interface PasswordHashChange {
  readonly from: string;
  readonly to: string;
}

/** A member as authentication sees them. */
export interface UserAuthState {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: Role;
  readonly authVersion: number;
}

/** A key that is not revoked and whose owner is a member, with the owner's state at lookup time. */
export interface ActiveApiKey {
  readonly keyId: string;
  readonly tenantId: string;
  readonly userId: string;
  /** Null: the key never expires. Expiry is the caller's to check, against its clock. */
  readonly expiresAt: Date | null;
  readonly owner: UserAuthState;
}

export type KeyRevocation = 'revoked' | 'already_revoked' | 'not_found';

/** A key's latest use, as batched for last_used_at. */
export interface ApiKeyUse {
  readonly tenantId: string;
  readonly keyId: string;
  readonly at: Date;
}

export interface ApiKeyRepository {
  /** Inserts a new key. Throws as is on a duplicate hash (random keys make one a failure, not a rule). */
  create(key: ApiKey): Promise<void>;
  /**
   * The non-revoked key with that lookup prefix and SHA-256 hash, joined to its owner's current state;
   * null when there is none (unknown, revoked, or its owner removed). Expired keys are returned.
   */
  findActiveByHash(keyPrefix: string, keyHash: string): Promise<ActiveApiKey | null>;
  /** The tenant's key with that id, revoked or expired too; null when the tenant has no such key. */
  findById(tenantId: string, keyId: string): Promise<ApiKey | null>;
  /** Every key of the tenant (revoked and expired ones too), newest created first. */
  listForTenant(tenantId: string): Promise<ApiKey[]>;
  /**
   * Revokes the tenant's key (the record stays): `revoked` when this call revoked it,
   * `already_revoked` when it was revoked before (nothing changes), `not_found` when the tenant has no such key.
   */
  revoke(tenantId: string, keyId: string): Promise<KeyRevocation>;
  /** Revokes every key the member owns and returns how many were active. */
  revokeAllOf(tenantId: string, userId: string): Promise<number>;
  /**
   * Moves each named key's last_used_at forward to its `at` (never back; a key named twice takes
   * the later time), as one write for the whole batch, which may span tenants. A key is matched
   * with its own tenant only; unknown keys are skipped.
   */
  markUsed(uses: readonly ApiKeyUse[]): Promise<void>;
}

export interface InviteRepository {
  /** Inserts a new invite. Throws as is on a duplicate token (random tokens make one a failure). */
  create(invite: Invite): Promise<void>;
  /** Global lookup by token, whatever the invite's state; null when no invite has that token. */
  findByToken(token: string): Promise<Invite | null>;
  /**
   * The tenant's invite with that id, whatever its state, token included (a resend carries it
   * again); null when that tenant has no invite with that id, whoever else may have one.
   */
  findById(tenantId: string, inviteId: string): Promise<Invite | null>;
  /**
   * Consumes the tenant's invite once: sets accepted_at only if it is still null and the invite has
   * not expired at `now`. Returns false when another signup got there first (or it has expired
   * since), or when that tenant has no invite with that id.
   */
  markAccepted(tenantId: string, inviteId: string, now: Date): Promise<boolean>;
  /**
   * The tenant's pending invites (not accepted, expires_at after `now`), newest created first, as
   * summaries: a listing never reads the tokens out of storage.
   */
  listPending(tenantId: string, now: Date): Promise<InviteSummary[]>;
  /**
   * Deletes the tenant's invite with that id if it has not been accepted (expired ones included).
   * Returns false when there is no such invite in that tenant, or it was accepted.
   */
  deleteUnaccepted(tenantId: string, inviteId: string): Promise<boolean>;
  /**
   * Deletes the tenant's unaccepted invites (expired ones included) that `invitedBy` sent for one of
   * `roles`, as deleteUnaccepted does one, and returns their ids (none: an empty list). An invite
   * accepted before this runs is kept.
   */
  deleteUnacceptedFrom(tenantId: string, invitedBy: string, roles: readonly InvitableRole[]): Promise<string[]>;
}

/** What authentication needs of a live session. */
export interface SessionState {
  readonly sessionId: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly lastSeenAt: Date;
  readonly authenticatedAt: Date;
}

/** A session's latest use, as batched for last_seen_at. */
export interface SessionUse {
  readonly tenantId: string;
  readonly sessionId: string;
  readonly at: Date;
}

/**
 * Sessions (domain/session.ts). Every method takes the tenant, and a member's own methods the
 * member, so no call reaches another tenant's or another member's session. Ending is a write of
 * ended_at (the row stays, for the record), at most once: an ended session never lives again.
 */
export interface SessionRepository {
  /** Inserts a new session. Ids are fresh, so a conflict is a storage failure and is thrown as is. */
  create(session: Session): Promise<void>;
  /** The tenant's live (not ended) session with that id, as authentication needs it; null otherwise (malformed ids too). */
  findLive(tenantId: string, sessionId: string): Promise<SessionState | null>;
  /** The member's live sessions, newest created first. */
  listLive(tenantId: string, userId: string): Promise<Session[]>;
  /** Ends the member's live session with that id; false when they have none such (another's, ended, unknown). */
  end(tenantId: string, userId: string, sessionId: string, ending: SessionEnding): Promise<boolean>;
  /** Ends every live session of the member, but `except` when given; returns how many ended. */
  endAllOf(tenantId: string, userId: string, ending: SessionEnding, except?: string): Promise<number>;
  /** Sets authenticated_at of the member's live session; false when they have none such. */
  renewAuthentication(tenantId: string, userId: string, sessionId: string, at: Date): Promise<boolean>;
  /**
   * Moves each named session's last_seen_at forward to its `at` (never back), as one write for the
   * whole batch, which may span tenants; a session is matched with its own tenant only.
   */
  markSeen(uses: readonly SessionUse[]): Promise<void>;
}

/** A passkey's use, written only while its counter is still the one the assertion was checked against. */
export interface PasskeyUse {
  readonly fromSignCount: number;
  readonly toSignCount: number;
  readonly backedUp: boolean;
  readonly at: Date;
}

/** Members' passkeys (domain/passkey.ts), several per member, each the tenant's and its member's only. */
export interface PasskeyRepository {
  /** Inserts a new passkey. Throws PasskeyAlreadyRegistered when its credential id is registered already. */
  create(passkey: Passkey): Promise<void>;
  /** The member's passkeys, oldest first; none: an empty list. */
  listOf(tenantId: string, userId: string): Promise<Passkey[]>;
  /** Global lookup by credential id (a passwordless sign-in names nobody else); null when unknown or its member removed. */
  findByCredentialId(credentialId: string): Promise<Passkey | null>;
  /** Renames the member's passkey; false when they have none with that id. */
  rename(tenantId: string, userId: string, passkeyId: string, name: string): Promise<boolean>;
  /** Deletes the member's passkey and returns it; null when they have none with that id. */
  remove(tenantId: string, userId: string, passkeyId: string): Promise<Passkey | null>;
  /**
   * Records a verified use: the counter, the backed-up flag and last_used_at, only while the stored
   * counter is still `use.fromSignCount`, so of two uses checked against one counter only one is
   * recorded. False when the passkey is gone or its counter moved meanwhile.
   */
  recordUse(tenantId: string, passkeyId: string, use: PasskeyUse): Promise<boolean>;
}

/**
 * Ceremony challenges, stored so that the options and the verification may reach different
 * instances. Each is used once and expires on the service's clock.
 */
export interface PasskeyChallengeRepository {
  /** Stores a member's challenge. Ids are fresh, so a conflict is a storage failure and is thrown as is. */
  create(challenge: PasskeyChallenge): Promise<void>;
  /**
   * Uses the member's challenge once: true only when an unused, unexpired challenge with that value,
   * purpose and attempt key (null for a registration) was stored for them and this call used it.
   */
  consume(tenantId: string, userId: string, purpose: PasskeyChallengePurpose, challenge: string, attemptKey: string | null, now: Date): Promise<boolean>;
  /** Stores a passwordless sign-in ceremony, and drops ceremonies that expired before its start. */
  beginSignIn(ceremony: PasskeySignInCeremony): Promise<void>;
  /** Uses a sign-in ceremony once: its challenge when it was unused and unexpired at `now`; null otherwise. */
  consumeSignIn(handleHash: string, now: Date): Promise<string | null>;
}

/** Authenticator apps (domain/second-factor.ts): at most one per member, pending or confirmed. */
export interface TotpFactorRepository {
  /** The member's authenticator app, pending or confirmed; null when they have none. */
  findByMember(tenantId: string, userId: string): Promise<TotpFactor | null>;
  /** Inserts a pending factor. Throws as is when the member already has one (the caller deletes a pending one first). */
  create(factor: TotpFactor): Promise<void>;
  /** Deletes the member's pending (unconfirmed) factor; false when they have none. */
  deletePending(tenantId: string, userId: string): Promise<boolean>;
  /**
   * Confirms the pending factor `factorId` at `at`, with `step` as its latest used step; false when
   * it is not the member's, or is confirmed already (a racing confirmation won).
   */
  confirm(tenantId: string, userId: string, factorId: string, at: Date, step: number): Promise<boolean>;
  /**
   * Accepts a code of step `step` once: sets last_used_step only while the factor is confirmed and
   * its last used step is below `step`, in one conditional write. False when another sign-in used
   * this step (or a later one) first, or there is no such confirmed factor.
   */
  useStep(tenantId: string, userId: string, factorId: string, step: number): Promise<boolean>;
  /** Deletes the member's factor, pending or confirmed; false when they had none. */
  deleteOf(tenantId: string, userId: string): Promise<boolean>;
  /** Whether any member of any tenant has an authenticator app, pending or confirmed (asked at start). */
  anyExist(): Promise<boolean>;
}

/** Recovery codes (domain/second-factor.ts), hashed. */
export interface RecoveryCodeRepository {
  /** Replaces the member's whole set (used and unused) with `codes`. */
  replaceAll(tenantId: string, userId: string, codes: readonly RecoveryCode[]): Promise<void>;
  /** Uses the member's unused code with that hash once; false when there is none such or it was used first. */
  consume(tenantId: string, userId: string, codeHash: string, at: Date): Promise<boolean>;
  /** How many of the member's codes are unused. */
  countUnused(tenantId: string, userId: string): Promise<number>;
  /** Deletes the member's codes; returns how many there were. */
  deleteAllOf(tenantId: string, userId: string): Promise<number>;
}

export interface Repositories {
  readonly tenants: TenantRepository;
  readonly users: UserRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly invites: InviteRepository;
  readonly auditEvents: AuditEventRepository;
  readonly emailTokens: EmailTokenRepository;
  readonly outbox: MailOutboxRepository;
  readonly signingKeys: SigningKeyRecordRepository;
  readonly sessions: SessionRepository;
  readonly passkeys: PasskeyRepository;
  readonly passkeyChallenges: PasskeyChallengeRepository;
  readonly totpFactors: TotpFactorRepository;
  readonly recoveryCodes: RecoveryCodeRepository;
  readonly ssoConnections: SsoConnectionRepository;
  readonly ssoDomains: SsoDomainRepository;
  readonly ssoIdentities: SsoIdentityRepository;
  readonly ssoSignIns: SsoSignInRepository;
}
