import type { ApiKey } from '../../../domain/api-key';
import type { AuditEvent } from '../../../domain/audit-event';
import type { EmailToken } from '../../../domain/email-token';
import type { SigningKeyState } from '../../../domain/signing-key-state';
import type { Invite } from '../../../domain/invite';
import type { Session } from '../../../domain/session';
import type { MfaPolicy, RecoveryCode, TotpFactor } from '../../../domain/second-factor';
import type { ClaimedMail } from '../../../domain/outgoing-mail';
import type { Tenant } from '../../../domain/tenant';
import type { User } from '../../../domain/user';
import type { UnloggedChange } from './memory-change-log';
import type { Passkey, PasskeyChallenge, PasskeySignInCeremony } from '../../../domain/passkey';
import type { SsoConnection, SsoDomain, SsoIdentity, SsoSignIn } from '../../../domain/sso';

/** A passkey challenge as stored: when it was used, if it was. */
export interface StoredPasskeyChallenge extends PasskeyChallenge {
  readonly usedAt: Date | null;
}

export interface StoredSignInCeremony extends PasskeySignInCeremony {
  readonly usedAt: Date | null;
}

/** A user row as stored: removal keeps the row and marks it, as the SQL table does. */
export interface StoredUser extends User {
  readonly removedAt: Date | null;
  readonly emailVerifiedAt: Date | null;
}

/** An outbox row as stored: `attempt` is the number of attempts claimed so far. */
export interface StoredMail extends ClaimedMail {
  readonly status: 'pending' | 'sent' | 'failed';
  readonly nextAttemptAt: Date;
  readonly leasedUntil: Date | null;
  readonly finishedAt: Date | null;
  readonly lastError: string | null;
}

/** Records are immutable values, so copying the maps is a full snapshot of the database. */
export interface MemoryState {
  readonly tenants: Map<string, Tenant>;
  readonly users: Map<string, StoredUser>;
  readonly apiKeys: Map<string, ApiKey>;
  readonly invites: Map<string, Invite>;
  readonly auditEvents: Map<string, AuditEvent>;
  readonly emailTokens: Map<string, EmailToken>;
  readonly outbox: Map<string, StoredMail>;
  /** Signing key states by key id. */
  readonly signingKeys: Map<string, SigningKeyState>;
  readonly sessions: Map<string, Session>;
  readonly passkeys: Map<string, Passkey>;
  readonly passkeyChallenges: Map<string, StoredPasskeyChallenge>;
  /** Passwordless sign-in ceremonies by the hash of their handle. */
  readonly passkeySignIns: Map<string, StoredSignInCeremony>;
  readonly totpFactors: Map<string, TotpFactor>;
  readonly recoveryCodes: Map<string, RecoveryCode>;
  /** Tenants' second-factor policies, by tenant id; a tenant without an entry is `optional`. */
  readonly mfaPolicies: Map<string, MfaPolicy>;
  /** Single sign-on connections by tenant id. */
  readonly ssoConnections: Map<string, SsoConnection>;
  /** Domain claims by ssoDomainKey (tenant and domain). */
  readonly ssoDomains: Map<string, SsoDomain>;
  /** Identities by ssoIdentityKey (tenant, issuer and subject). */
  readonly ssoIdentities: Map<string, SsoIdentity>;
  /** Sign-ins in flight by the hash of their state. */
  readonly ssoSignIns: Map<string, SsoSignIn>;
}

export function emptyState(): MemoryState {
  return {
    tenants: new Map(), users: new Map(), apiKeys: new Map(), invites: new Map(), auditEvents: new Map(), emailTokens: new Map(), outbox: new Map(),
    signingKeys: new Map(), sessions: new Map(), totpFactors: new Map(), recoveryCodes: new Map(),
    passkeys: new Map(), passkeyChallenges: new Map(), passkeySignIns: new Map(), mfaPolicies: new Map(),
    ssoConnections: new Map(), ssoDomains: new Map(), ssoIdentities: new Map(), ssoSignIns: new Map(),
  };
}

export function snapshot(state: MemoryState): MemoryState {
  return {
    tenants: new Map(state.tenants),
    users: new Map(state.users),
    apiKeys: new Map(state.apiKeys),
    invites: new Map(state.invites),
    auditEvents: new Map(state.auditEvents),
    emailTokens: new Map(state.emailTokens),
    outbox: new Map(state.outbox),
    signingKeys: new Map(state.signingKeys),
    sessions: new Map(state.sessions),
    passkeys: new Map(state.passkeys),
    passkeyChallenges: new Map(state.passkeyChallenges),
    passkeySignIns: new Map(state.passkeySignIns),
    totpFactors: new Map(state.totpFactors),
    recoveryCodes: new Map(state.recoveryCodes),
    mfaPolicies: new Map(state.mfaPolicies),
    ssoConnections: new Map(state.ssoConnections),
    ssoDomains: new Map(state.ssoDomains),
    ssoIdentities: new Map(state.ssoIdentities),
    ssoSignIns: new Map(state.ssoSignIns),
  };
}

export type CredentialRowChange = Extract<UnloggedChange, { kind: 'user' | 'api-key' | 'session' }>;

/**
 * What the SQL triggers log, found by comparing a committed draft with the state it replaces:
 * a member whose role, auth version, removal, password or tenant changed, or who is gone; a key
 * whose revocation, expiry, hash or owner changed, or that is gone; a session that ended or is gone. Records are replaced, never
 * mutated, so an unchanged record is the same object and costs one comparison.
 */
export function credentialChanges(before: MemoryState, after: MemoryState): CredentialRowChange[] {
  const changes: CredentialRowChange[] = [];
  for (const [id, old] of before.users) {
    const now = after.users.get(id);
    if (now === old) continue;
    if (!now || now.role !== old.role || now.authVersion !== old.authVersion || now.removedAt?.getTime() !== old.removedAt?.getTime()
      || now.passwordHash !== old.passwordHash || now.tenantId !== old.tenantId) {
      changes.push({ kind: 'user', userId: id, tenantId: old.tenantId });
      if (now && now.tenantId !== old.tenantId) changes.push({ kind: 'user', userId: id, tenantId: now.tenantId });
    }
  }
  for (const [id, old] of before.apiKeys) {
    const now = after.apiKeys.get(id);
    if (now === old) continue;
    if (!now || now.revoked !== old.revoked || now.expiresAt?.getTime() !== old.expiresAt?.getTime() || now.keyHash !== old.keyHash
      || now.userId !== old.userId || now.tenantId !== old.tenantId) {
      changes.push({ kind: 'api-key', keyId: id, tenantId: old.tenantId });
      if (now && now.tenantId !== old.tenantId) changes.push({ kind: 'api-key', keyId: id, tenantId: now.tenantId });
    }
  }
  for (const [id, old] of before.sessions) {
    const now = after.sessions.get(id);
    if (now === old) continue;
    if (!now || now.endedAt?.getTime() !== old.endedAt?.getTime() || now.userId !== old.userId || now.tenantId !== old.tenantId) {
      changes.push({ kind: 'session', sessionId: id, tenantId: old.tenantId });
    }
  }
  return changes;
}
