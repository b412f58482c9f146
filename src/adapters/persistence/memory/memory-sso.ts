import type {
  SsoConnectionRepository, SsoDomainRepository, SsoIdentityRepository, SsoSignInRepository,
} from '../../../application/ports/sso-repositories';
import { SsoDomainTaken } from '../../../domain/errors';
import type { SsoConnection, SsoDomain, SsoIdentity, SsoSignIn } from '../../../domain/sso';

/** The maps' keys, as the SQL tables' primary keys are made. */
export const ssoDomainKey = (tenantId: string, domain: string): string => `${tenantId} ${domain}`;
export const ssoIdentityKey = (tenantId: string, issuer: string, subject: string): string => JSON.stringify([tenantId, issuer, subject]);

export function memorySsoConnections(connections: Map<string, SsoConnection>): SsoConnectionRepository {
  return {
    async find(tenantId) {
      return connections.get(tenantId) ?? null;
    },
    async save(connection) {
      const replaced = connections.get(connection.tenantId);
      connections.set(connection.tenantId, replaced ? { ...connection, createdAt: replaced.createdAt } : connection);
    },
    async remove(tenantId) {
      return connections.delete(tenantId);
    },
  };
}

export function memorySsoDomains(domains: Map<string, SsoDomain>): SsoDomainRepository {
  const verifiedOwner = (domain: string): string | null => {
    for (const claim of domains.values()) if (claim.domain === domain && claim.verifiedAt !== null) return claim.tenantId;
    return null;
  };
  const refuseIfTakenFrom = (tenantId: string, domain: string): void => {
    const owner = verifiedOwner(domain);
    if (owner !== null && owner !== tenantId) throw new SsoDomainTaken();
  };
  return {
    async add(domain) {
      refuseIfTakenFrom(domain.tenantId, domain.domain);
      const key = ssoDomainKey(domain.tenantId, domain.domain);
      if (domains.has(key)) return false;
      domains.set(key, domain);
      return true;
    },
    async listFor(tenantId) {
      return [...domains.values()].filter((claim) => claim.tenantId === tenantId)
        .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
    },
    async markVerified(tenantId, domain, at) {
      refuseIfTakenFrom(tenantId, domain);
      const key = ssoDomainKey(tenantId, domain);
      const claim = domains.get(key);
      if (!claim) return null;
      if (claim.verifiedAt !== null) return claim;
      const verified = { ...claim, verifiedAt: at };
      domains.set(key, verified);
      return verified;
    },
    async remove(tenantId, domain) {
      return domains.delete(ssoDomainKey(tenantId, domain));
    },
    async verifiedOwner(domain) {
      return verifiedOwner(domain);
    },
  };
}

export function memorySsoIdentities(identities: Map<string, SsoIdentity>): SsoIdentityRepository {
  return {
    async find(tenantId, issuer, subject) {
      return identities.get(ssoIdentityKey(tenantId, issuer, subject)) ?? null;
    },
    async create(identity) {
      const key = ssoIdentityKey(identity.tenantId, identity.issuer, identity.subject);
      if (identities.has(key)) return false;
      identities.set(key, identity);
      return true;
    },
    async recordSignIn(tenantId, issuer, subject, at) {
      const key = ssoIdentityKey(tenantId, issuer, subject);
      const identity = identities.get(key);
      if (!identity) return false;
      if (identity.lastSignInAt.getTime() < at.getTime()) identities.set(key, { ...identity, lastSignInAt: at });
      return true;
    },
  };
}

export function memorySsoSignIns(signIns: Map<string, SsoSignIn>): SsoSignInRepository {
  return {
    async create(signIn) {
      if (signIns.has(signIn.stateHash)) throw new Error('duplicate key value violates unique constraint "sso_sign_ins_pkey"');
      signIns.set(signIn.stateHash, signIn);
    },
    async consume(stateHash, now) {
      const signIn = signIns.get(stateHash);
      if (!signIn || signIn.usedAt !== null || signIn.expiresAt.getTime() <= now.getTime()) return null;
      const used = { ...signIn, usedAt: now };
      signIns.set(stateHash, used);
      return used;
    },
    async pruneExpired(before) {
      let pruned = 0;
      for (const [key, signIn] of signIns) {
        if (signIn.expiresAt.getTime() >= before.getTime()) continue;
        signIns.delete(key);
        pruned += 1;
      }
      return pruned;
    },
  };
}
