import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { TokenClaims, TokenService } from '../../application/ports/token-service';

const ALGORITHM = 'HS256';
const LIFETIME = '24h';
/** Tokens whose signature has been checked, remembered by this instance; the least recently used go first. */
const VERIFIED_TOKENS = 10_000;

interface VerifiedToken {
  readonly claims: TokenClaims;
  /** Seconds since the epoch, as in the token. */
  readonly exp: number;
}

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
 * tries to parse it as a PEM public key on every call, which costs far more than the HMAC itself
 * (docs/benchmarks.md, "Figures behind choices in the code").
 * A previous secret, while one is being rotated out, verifies tokens but never signs them.
 *
 * A client sends the same token on every request for a day, so each token's signature is checked
 * (HMAC, base64 and JSON decoding) once, and its claims are kept in a bounded LRU keyed by the
 * whole token: only a token this service signed can get in, and a hit is refused once past its
 * expiry exactly as jsonwebtoken would refuse it. This caches the signature check only; whether the
 * token's user still stands (removed, role or password changed) is decided by Authenticate on every
 * request, after this.
 */
export class JwtTokenService implements TokenService {
  readonly expiresIn = LIFETIME;
  private readonly key: KeyObject;
  private readonly verificationKeys: readonly KeyObject[];
  private readonly verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_TOKENS });

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
    const known = this.verified.get(token);
    if (known) {
      // jsonwebtoken's own rule: expired once the current second reaches exp.
      if (Math.floor(Date.now() / 1000) < known.exp) return known.claims;
      this.verified.delete(token);
      return null;
    }
    for (const key of this.verificationKeys) {
      const payload = verifiedPayload(token, key);
      if (payload === undefined) continue; // bad signature for this key: try the previous one
      if (!isClaims(payload)) return null; // a signed token without our claims, or without expiry
      const { tenantId, userId, email, role, authVersion, exp } = payload;
      const claims: TokenClaims = Object.freeze(authVersion === undefined ? { tenantId, userId, email, role } : { tenantId, userId, email, role, authVersion });
      this.verified.set(token, { claims, exp });
      return claims;
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
