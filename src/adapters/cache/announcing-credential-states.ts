import type { ApiKeyGrant, CredentialChange, CredentialStates } from '../../application/ports/credential-states';
import type { UserAuthState } from '../../application/ports/repositories';
import type { CredentialChangeFanOut } from './credential-change-fan-out';

/** A credential cache that can stop keeping anything while changes may go unheard (CachedCredentialStates). */
export interface SuspendableCredentialStates extends CredentialStates {
  suspend(): void;
  resume(): void;
}

/**
 * The instance's credential cache, with every change it is told to forget also handed to the
 * change fan-out. This is the one place where changes reach verifying services: whatever feeds the
 * cache (a use-case after its commit, the database's change listener) feeds them, so they see
 * exactly what this instance's own requests see, no sooner and no later.
 */
export class AnnouncingCredentialStates implements SuspendableCredentialStates {
  constructor(private readonly cache: SuspendableCredentialStates, private readonly fanOut: CredentialChangeFanOut) {}

  user(tenantId: string, userId: string): Promise<UserAuthState | null> {
    return this.cache.user(tenantId, userId);
  }

  apiKey(keyPrefix: string, keyHash: string): Promise<ApiKeyGrant | null> {
    return this.cache.apiKey(keyPrefix, keyHash);
  }

  forget(change: CredentialChange): void {
    this.cache.forget(change);
    this.fanOut.publish(change);
  }

  suspend(): void {
    this.cache.suspend();
    this.fanOut.suspend();
  }

  resume(): void {
    this.cache.resume();
    this.fanOut.resume();
  }
}
