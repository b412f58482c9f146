import { randomBytes } from 'node:crypto';
import type { TokenClaims, TokenService } from '../application/ports/token-service';
import { jwtKey, type JwtSigningKey } from '../adapters/crypto/jwt-signing-keys';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';

export interface RotateSigningKeyOptions {
  /**
   * Drop the key that signed until now at once, as an operator does at the last step of a rotation
   * (docs/operations.md, "Rotating the signing secret"): every token it signed is refused.
   * Unset, it still verifies, as during the rolling step.
   */
  readonly retirePrevious?: boolean;
}

/** The key ids the kit's service signs with and verifies with after a rotation. */
export interface SigningKeyIds {
  readonly signing: string;
  readonly verifying: readonly string[];
}

function randomKey(): JwtSigningKey {
  return jwtKey(randomBytes(32).toString('hex'));
}

/**
 * The kit's token service: the service's own JwtTokenService, replaced by a new one at each
 * rotation, as an instance restarted with new JWT_SECRET / JWT_SECRET_PREVIOUS would hold. A new
 * one also starts with no verified token remembered, so a retired key's tokens are checked again
 * (and refused) rather than answered from memory.
 */
export class RotatingSigningKeys implements TokenService {
  private current: JwtTokenService;
  private signing: JwtSigningKey;

  constructor() {
    this.signing = randomKey();
    this.current = new JwtTokenService({ signing: this.signing });
  }

  get expiresIn(): string {
    return this.current.expiresIn;
  }

  get keyIds(): SigningKeyIds {
    return this.current.keyIds;
  }

  /** Signs with a new key from now on; the key that signed until now verifies unless retired. An older one is dropped. */
  rotate(options: RotateSigningKeyOptions = {}): SigningKeyIds {
    const previous = options.retirePrevious ? undefined : this.signing;
    this.signing = randomKey();
    this.current = new JwtTokenService({ signing: this.signing, previous });
    return this.keyIds;
  }

  issue(claims: TokenClaims): string {
    return this.current.issue(claims);
  }

  verify(token: string): TokenClaims | null {
    return this.current.verify(token);
  }

  expiresAt(token: string): Date | null {
    return this.current.expiresAt(token);
  }
}
