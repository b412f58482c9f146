import type { Repositories } from '../../../application/ports/repositories';
import { EmailAlreadyRegistered } from '../../../domain/errors';
import type { MemoryState } from './memory-state';

/** A unique index the memory backend has to enforce by hand, failing as Postgres would. */
class UniqueViolation extends Error {
  constructor(index: string) {
    super(`duplicate key value violates unique constraint "${index}"`);
  }
}

function assertUnique<T>(rows: Iterable<T>, isDuplicate: (row: T) => boolean, index: string): void {
  for (const row of rows) if (isDuplicate(row)) throw new UniqueViolation(index);
}

/** Repositories over one state: the committed one, or a transaction's draft. */
export function memoryRepositories(state: MemoryState): Repositories {
  return {
    tenants: {
      async create(tenant) {
        assertUnique(state.tenants.values(), (t) => t.id === tenant.id || t.slug === tenant.slug, 'tenants_slug_key');
        state.tenants.set(tenant.id, tenant);
      },
      async findById(id) {
        return state.tenants.get(id) ?? null;
      },
    },
    users: {
      async create(user) {
        assertUnique(state.users.values(), (u) => u.id === user.id, 'users_pkey');
        for (const u of state.users.values()) if (u.email === user.email) throw new EmailAlreadyRegistered();
        state.users.set(user.id, user);
      },
      async findByEmail(email) {
        for (const u of state.users.values()) if (u.email === email) return u;
        return null;
      },
      async findById(tenantId, userId) {
        const user = state.users.get(userId);
        return user && user.tenantId === tenantId ? user : null;
      },
      async updatePasswordHash(tenantId, userId, passwordHash) {
        const user = state.users.get(userId);
        if (user && user.tenantId === tenantId) state.users.set(userId, { ...user, passwordHash });
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
          const owner = state.users.get(key.userId);
          if (!owner) return null;
          return { keyId: key.id, tenantId: key.tenantId, userId: key.userId, role: owner.role };
        }
        return null;
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
      async markAccepted(tenantId, inviteId, now) {
        const invite = state.invites.get(inviteId);
        if (!invite || invite.tenantId !== tenantId) return false;
        if (invite.acceptedAt !== null || invite.expiresAt.getTime() <= now.getTime()) return false;
        state.invites.set(inviteId, { ...invite, acceptedAt: now });
        return true;
      },
      async listPending(tenantId, now) {
        // Ties on created_at are broken by id, descending, exactly as the SQL adapter's ORDER BY does.
        return [...state.invites.values()]
          .filter((i) => i.tenantId === tenantId && i.acceptedAt === null && i.expiresAt.getTime() > now.getTime())
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      },
      async deleteUnaccepted(tenantId, inviteId) {
        const invite = state.invites.get(inviteId);
        if (!invite || invite.tenantId !== tenantId || invite.acceptedAt !== null) return false;
        return state.invites.delete(inviteId);
      },
    },
  };
}
