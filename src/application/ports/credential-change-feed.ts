import type { CredentialChange } from './credential-states';

/** Someone who wants every committed credential change this instance hears of, as it hears it. */
export interface CredentialChangeSubscriber {
  change(change: CredentialChange): void;
  /**
   * Changes may have been missed (the instance lost its own source of changes, or heard one it could
   * not read): whatever the subscriber remembers may be wrong. The subscription has ended.
   */
  interrupted(): void;
}

export interface CredentialChangeSubscription {
  unsubscribe(): void;
}

/**
 * The instance's stream of committed credential changes. Delivery is at least once: the same change
 * may come twice (the instance's own use-case and its listener both report it); forgetting is
 * idempotent, so subscribers need not care.
 */
export interface CredentialChangeFeed {
  /** Null while the instance itself is not hearing changes: a subscriber would wait for nothing. */
  subscribe(subscriber: CredentialChangeSubscriber): CredentialChangeSubscription | null;
}
