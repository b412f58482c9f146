import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TokenClaims, TokenService } from '../../application/ports/token-service';

const ALGORITHM = 'HS256';
const LIFETIME = '24h';

function isClaims(payload: unknown): payload is TokenClaims & { exp: number } {
  if (typeof payload !== 'object' || payload === null) return false;
  const p = payload as Record<string, unknown>;
  return typeof p.tenantId === 'string' && typeof p.userId === 'string' && typeof p.email === 'string'
    && typeof p.role === 'string' && typeof p.exp === 'number';
}

/**
 * HS256 bearer tokens. The secret is held as a KeyObject: given a plain string, jsonwebtoken first
 * tries to parse it as a PEM public key on every call, which costs about fifty times the HMAC itself.
 */
export class JwtTokenService implements TokenService {
  readonly expiresIn = LIFETIME;
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: TokenClaims): string {
    const { tenantId, userId, email, role } = claims;
    return jwt.sign({ tenantId, userId, email, role }, this.key, { algorithm: ALGORITHM, expiresIn: LIFETIME });
  }

  verify(token: string): TokenClaims | null {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM] });
      if (!isClaims(payload)) return null; // a signed token without our claims, or without expiry
      return { tenantId: payload.tenantId, userId: payload.userId, email: payload.email, role: payload.role };
    } catch {
      return null;
    }
  }
}
