import type { ScimTokenRepository } from '../../../application/ports/scim-tokens';
import type { ScimToken } from '../../../domain/scim';

/** SCIM tokens over one state's map, keyed by tenant as the SQL table is (one token per tenant). */
export function memoryScimTokens(tokens: Map<string, ScimToken>): ScimTokenRepository {
  return {
    async replace(token) {
      tokens.set(token.tenantId, token);
    },
    async find(tenantId) {
      return tokens.get(tenantId) ?? null;
    },
    async remove(tenantId) {
      return tokens.delete(tenantId);
    },
    async findByHash(tokenHash) {
      for (const token of tokens.values()) if (token.tokenHash === tokenHash) return token;
      return null;
    },
    async markUsed(tenantId, tokenHash, at) {
      const token = tokens.get(tenantId);
      if (!token || token.tokenHash !== tokenHash) return false;
      if (token.lastUsedAt === null || token.lastUsedAt.getTime() < at.getTime()) tokens.set(tenantId, { ...token, lastUsedAt: at });
      return true;
    },
  };
}
