import type { Repositories, UserAuthState } from '../../../application/ports/repositories';
import { EmailAlreadyRegistered } from '../../../domain/errors';
import type { User } from '../../../domain/user';
import type { MemoryState, StoredUser } from './memory-state';
import { memoryAuditEvents } from './memory-audit-events';
import { memoryEmailTokens, memoryOutbox } from './memory-mail';
import { memorySessions } from './memory-sessions';
import { memoryPasskeyChallenges, memoryPasskeys } from './memory-passkeys';
import { memoryRecoveryCodes, memoryTotpFactors } from './memory-second-factors';
import { memorySsoConnections, memorySsoDomains, memorySsoIdentities, memorySsoSignIns } from './memory-sso';

/** A unique index the memory backend has to enforce by hand, failing as Postgres would. */
class UniqueViolation extends Error {
  constructor(index: string) {
    super(`duplicate key value violates unique constraint "${index}"`);
  }
}

function assertUnique<T>(rows: Iterable<T>, isDuplicate: (row: T) => boolean, index: string): void {
  for (const row of rows) if (isDuplicate(row)) throw new UniqueViolation(index);
}

/** Orders as the SQL adapter's ORDER BY created_at <dir>, id <dir> does. */
function byCreated(direction: 1 | -1) {
  return (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number =>
    direction * (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function asUser({ removedAt: _removed, emailVerifiedAt: _verified, ...user }: StoredUser): User {
  return user;
}

function authState(user: StoredUser): UserAuthState {
  return { tenantId: user.tenantId, userId: user.id, role: user.role, authVersion: user.authVersion };
}

/** Repositories over one state: the committed one, or a transaction's draft. */
export function memoryRepositories(state: MemoryState): Repositories {
  /** The tenant's member with that id; removed users are never found. */
  const member = (tenantId: string, userId: string): StoredUser | null => {
    const user = state.users.get(userId);
    return user && user.tenantId === tenantId && user.removedAt === null ? user : null;
  };
  const update = (user: StoredUser, change: Partial<StoredUser>): StoredUser => {
    const updated = { ...user, ...change };
    state.users.set(user.id, updated);
    return updated;
  };
  return {
    tenants: {
      async create(tenant) {
        assertUnique(state.tenants.values(), (t) => t.id === tenant.id, 'tenants_pkey');
        for (const t of state.tenants.values()) if (t.slug === tenant.slug) return false;
        state.tenants.set(tenant.id, tenant);
        return true;
      },
      async findById(id) {
        return state.tenants.get(id) ?? null;
      },
      async findIdBySlug(slug) {
        for (const t of state.tenants.values()) if (t.slug === slug) return t.id;
        return null;
      },
      // Runs are serialised, so holding the whole state is already the lock.
      async lockMembership(tenantId) {
        return state.tenants.has(tenantId);
      },
      async mfaPolicy(tenantId) {
        return state.tenants.has(tenantId) ? state.mfaPolicies.get(tenantId) ?? 'optional' : null;
      },
      async setMfaPolicy(tenantId, policy) {
        if (!state.tenants.has(tenantId)) return false;
        state.mfaPolicies.set(tenantId, policy);
        return true;
      },
    },
    users: {
      async create(user) {
        assertUnique(state.users.values(), (u) => u.id === user.id, 'users_pkey');
        for (const u of state.users.values()) if (u.email === user.email && u.removedAt === null) throw new EmailAlreadyRegistered();
        state.users.set(user.id, { ...user, removedAt: null, emailVerifiedAt: null });
      },
      async findByEmail(email) {
        for (const u of state.users.values()) if (u.email === email && u.removedAt === null) return asUser(u);
        return null;
      },
      async findById(tenantId, userId) {
        const user = member(tenantId, userId);
        return user ? asUser(user) : null;
      },
      async findAuthState(tenantId, userId) {
        const user = member(tenantId, userId);
        return user ? authState(user) : null;
      },
      // Runs are serialised: nothing else changes the member while this run lasts.
      async holdAuthState(tenantId, userId) {
        const user = member(tenantId, userId);
        return user ? authState(user) : null;
      },
      async listMembers(tenantId) {
        return [...state.users.values()]
          .filter((u) => u.tenantId === tenantId && u.removedAt === null)
          .sort(byCreated(1))
          .map(asUser);
      },
      async countOwners(tenantId) {
        return [...state.users.values()].filter((u) => u.tenantId === tenantId && u.removedAt === null && u.role === 'owner').length;
      },
      async updatePasswordHash(tenantId, userId, { from, to }) {
        const user = member(tenantId, userId);
        if (!user || user.passwordHash !== from) return false;
        update(user, { passwordHash: to });
        return true;
      },
      async changeRole(tenantId, userId, role) {
        const user = member(tenantId, userId);
        if (user) update(user, { role, authVersion: user.authVersion + 1 });
        return user !== null;
      },
      async raiseAuthVersion(tenantId, userId) {
        const user = member(tenantId, userId);
        if (user) update(user, { authVersion: user.authVersion + 1 });
        return user !== null;
      },
      async changePassword(tenantId, userId, { from, to }) {
        const user = member(tenantId, userId);
        if (!user || user.passwordHash !== from) return null;
        return asUser(update(user, { passwordHash: to, authVersion: user.authVersion + 1 }));
      },
      async markRemoved(tenantId, userId, at) {
        const user = member(tenantId, userId);
        if (user) update(user, { removedAt: at, authVersion: user.authVersion + 1 });
        return user !== null;
      },
      async markEmailVerified(tenantId, userId, email, at) {
        const user = member(tenantId, userId);
        if (!user || user.email !== email) return false;
        if (user.emailVerifiedAt === null) update(user, { emailVerifiedAt: at });
        return true;
      },
      async emailVerifiedAt(tenantId, userId) {
        return member(tenantId, userId)?.emailVerifiedAt ?? null;
      },
      async changeEmail(tenantId, userId, { from, to }, verifiedAt) {
        const user = member(tenantId, userId);
        if (!user || user.email !== from) return null;
        for (const u of state.users.values()) if (u.email === to && u.removedAt === null && u.id !== userId) throw new EmailAlreadyRegistered();
        return asUser(update(user, { email: to, emailVerifiedAt: verifiedAt, authVersion: user.authVersion + 1 }));
      },
    },
    apiKeys: {
      async create(key) {
        assertUnique(state.apiKeys.values(), (k) => k.id === key.id || k.keyHash === key.keyHash, 'api_keys_key_hash_key');
        state.apiKeys.set(key.id, key);
      },
      async findActiveByHash(keyPrefix, keyHash) {
        for (const key of state.apiKeys.values()) {
          if (key.revoked || key.keyPrefix !== keyPrefix || key.keyHash !== keyHash) continue;
          const owner = member(key.tenantId, key.userId);
          if (!owner) return null;
          return { keyId: key.id, tenantId: key.tenantId, userId: key.userId, expiresAt: key.expiresAt, owner: authState(owner) };
        }
        return null;
      },
      async listForTenant(tenantId) {
        return [...state.apiKeys.values()].filter((k) => k.tenantId === tenantId).sort(byCreated(-1));
      },
      async findById(tenantId, keyId) {
        const key = state.apiKeys.get(keyId);
        return key && key.tenantId === tenantId ? key : null;
      },
      async revoke(tenantId, keyId) {
        const key = state.apiKeys.get(keyId);
        if (!key || key.tenantId !== tenantId) return 'not_found';
        if (key.revoked) return 'already_revoked';
        state.apiKeys.set(keyId, { ...key, revoked: true });
        return 'revoked';
      },
      async revokeAllOf(tenantId, userId) {
        let revoked = 0;
        for (const key of state.apiKeys.values()) {
          if (key.tenantId !== tenantId || key.userId !== userId || key.revoked) continue;
          state.apiKeys.set(key.id, { ...key, revoked: true });
          revoked += 1;
        }
        return revoked;
      },
      async markUsed(uses) {
        for (const { tenantId, keyId, at } of uses) {
          const key = state.apiKeys.get(keyId);
          if (!key || key.tenantId !== tenantId) continue;
          if (key.lastUsedAt === null || key.lastUsedAt.getTime() < at.getTime()) state.apiKeys.set(keyId, { ...key, lastUsedAt: at });
        }
      },
    },
    invites: {
      async create(invite) {
        assertUnique(state.invites.values(), (i) => i.id === invite.id || i.token === invite.token, 'tenant_invites_token_key');
        state.invites.set(invite.id, invite);
      },
      async findByToken(token) {
        for (const invite of state.invites.values()) if (invite.token === token) return invite;
        return null;
      },
      async findById(tenantId, inviteId) {
        const invite = state.invites.get(inviteId);
        return invite && invite.tenantId === tenantId ? invite : null;
      },
      async markAccepted(tenantId, inviteId, now) {
        const invite = state.invites.get(inviteId);
        if (!invite || invite.tenantId !== tenantId) return false;
        if (invite.acceptedAt !== null || invite.expiresAt.getTime() <= now.getTime()) return false;
        state.invites.set(inviteId, { ...invite, acceptedAt: now });
        return true;
      },
      async listPending(tenantId, now) {
        return [...state.invites.values()]
          .filter((i) => i.tenantId === tenantId && i.acceptedAt === null && i.expiresAt.getTime() > now.getTime())
          .sort(byCreated(-1))
          .map(({ id, email, role, expiresAt, createdAt }) => ({ id, email, role, expiresAt, createdAt }));
      },
      async deleteUnaccepted(tenantId, inviteId) {
        const invite = state.invites.get(inviteId);
        if (!invite || invite.tenantId !== tenantId || invite.acceptedAt !== null) return false;
        return state.invites.delete(inviteId);
      },
      async deleteUnacceptedFrom(tenantId, invitedBy, roles) {
        const deleted: string[] = [];
        for (const invite of state.invites.values()) {
          if (invite.tenantId !== tenantId || invite.invitedBy !== invitedBy || invite.acceptedAt !== null) continue;
          if (!roles.includes(invite.role)) continue;
          state.invites.delete(invite.id);
          deleted.push(invite.id);
        }
        return deleted;
      },
    },
    auditEvents: memoryAuditEvents(state.auditEvents),
    emailTokens: memoryEmailTokens(state.emailTokens),
    outbox: memoryOutbox(state.outbox),
    signingKeys: {
      // The memory unit of work is serialised: holding it is the lock.
      async lockAndList() {
        return [...state.signingKeys].map(([keyId, keyState]) => ({ keyId, state: keyState }));
      },
      async save(records) {
        for (const record of records) state.signingKeys.set(record.keyId, record.state);
      },
    },
    sessions: memorySessions(state.sessions),
    passkeys: memoryPasskeys(state.passkeys, state.users),
    passkeyChallenges: memoryPasskeyChallenges(state.passkeyChallenges, state.passkeySignIns),
    totpFactors: memoryTotpFactors(state.totpFactors),
    recoveryCodes: memoryRecoveryCodes(state.recoveryCodes),
    ssoConnections: memorySsoConnections(state.ssoConnections),
    ssoDomains: memorySsoDomains(state.ssoDomains),
    ssoIdentities: memorySsoIdentities(state.ssoIdentities),
    ssoSignIns: memorySsoSignIns(state.ssoSignIns),
  };
}
