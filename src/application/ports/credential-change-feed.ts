import type { ChangePosition } from '../../domain/change-position';
import type { LoggedChange } from './credential-change-log';

/** Someone who wants every committed credential change this instance applies, as it applies them. */
export interface CredentialChangeSubscriber {
  /**
   * Changes just applied, in order of position: every change this instance reads from the log in
   * one go (at least one). A subscriber filters what concerns it.
   */
  changes(batch: readonly LoggedChange[]): void;
  /**
   * Changes may have been missed (the instance lost its own source of changes, or was told that
   * anything may have changed): whatever the subscriber remembers may be wrong. The subscription has ended.
   */
  interrupted(): void;
}

export interface CredentialChangeSubscription {
  /** The instance's position when the subscription began: every change after it reaches the subscriber. */
  readonly position: ChangePosition;
  unsubscribe(): void;
}

/** Told of every batch and every interruption, for as long as the instance runs (never unsubscribed). */
export interface CredentialChangeWatcher {
  changes(batch: readonly LoggedChange[]): void;
  /** Anything may have changed: forget everything remembered. */
  reset(): void;
}

/** The instance's stream of committed credential changes, each once, in order of position. */
export interface CredentialChangeFeed {
  /** Null while the instance itself is not hearing changes: a subscriber would wait for nothing. */
  subscribe(subscriber: CredentialChangeSubscriber): CredentialChangeSubscription | null;
  /** For what the instance itself remembers (trusted service keys): told of everything, while hearing or not. */
  watch(watcher: CredentialChangeWatcher): void;
}
