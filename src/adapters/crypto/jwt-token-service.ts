import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TokenClaims, TokenService } from '../../application/ports/token-service';

const ALGORITHM = 'HS256';
const LIFETIME = '24h';

function isClaims(payload: unknown): payload is TokenClaims & { exp: number } {
  if (typeof payload !== 'object' || payload === null) return false;
  const p = payload as Record<string, unknown>;
  // Absent in tokens issued before the claim existed; present, it must be a version we could have issued.
  const version = p.authVersion === undefined || (Number.isSafeInteger(p.authVersion) && (p.authVersion as number) >= 0);
  return typeof p.tenantId === 'string' && typeof p.userId === 'string' && typeof p.email === 'string'
    && typeof p.role === 'string' && typeof p.exp === 'number' && version;
}

function secretKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * HS256 bearer tokens. Secrets are held as KeyObjects: given a plain string, jsonwebtoken first
 * tries to parse it as a PEM public key on every call, which costs about fifty times the HMAC itself.
 * A previous secret, while one is being rotated out, verifies tokens but never signs them.
 */
export class JwtTokenService implements TokenService {
  readonly expiresIn = LIFETIME;
  private readonly key: KeyObject;
  private readonly verificationKeys: readonly KeyObject[];

  constructor(secret: string, previousSecret?: string) {
    this.key = secretKey(secret);
    this.verificationKeys = previousSecret ? [this.key, secretKey(previousSecret)] : [this.key];
  }

  issue(claims: TokenClaims): string {
    const { tenantId, userId, email, role, authVersion } = claims;
    const payload = authVersion === undefined ? { tenantId, userId, email, role } : { tenantId, userId, email, role, authVersion };
    return jwt.sign(payload, this.key, { algorithm: ALGORITHM, expiresIn: LIFETIME });
  }

  verify(token: string): TokenClaims | null {
    for (const key of this.verificationKeys) {
      const payload = verifiedPayload(token, key);
      if (payload === undefined) continue; // bad signature for this key: try the previous one
      if (!isClaims(payload)) return null; // a signed token without our claims, or without expiry
      const { tenantId, userId, email, role, authVersion } = payload;
      return authVersion === undefined ? { tenantId, userId, email, role } : { tenantId, userId, email, role, authVersion };
    }
    return null;
  }
}

/** The payload of a token valid under this key; null when it is signed right but unusable; undefined otherwise. */
function verifiedPayload(token: string, key: KeyObject): unknown {
  try {
    return jwt.verify(token, key, { algorithms: [ALGORITHM] });
  } catch (error) {
    // Only a signature mismatch is worth a second key; an expired or malformed token fails for both.
    return error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature' ? undefined : null;
  }
}
