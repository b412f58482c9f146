import type {
  CredentialChangeFeed, CredentialChangeSubscriber, CredentialChangeSubscription, CredentialChangeWatcher,
} from '../../application/ports/credential-change-feed';
import type { LoggedChange } from '../../application/ports/credential-change-log';
import { type ChangePosition, NO_CHANGE } from '../../domain/change-position';

/**
 * Hands each batch of credential changes the instance applies to every subscriber (the change
 * streams of verifying services) and every watcher (what the instance remembers besides its
 * credential cache), in process, synchronously. It follows the instance's own hearing: while the
 * instance is deaf (its change listener is disconnected) nobody may subscribe, and every
 * subscription is ended with `interrupted` when hearing is lost, or when anything may have
 * changed, so subscribers drop what they remember and come back.
 */
export class CredentialChangeFanOut implements CredentialChangeFeed {
  private readonly subscribers = new Set<CredentialChangeSubscriber>();
  private readonly watchers: CredentialChangeWatcher[] = [];
  private hearing: boolean;
  private positionNow: ChangePosition = NO_CHANGE;

  /** `hearing` false: subscriptions are refused until `resume` (an instance that starts deaf). */
  constructor(hearing = true) {
    this.hearing = hearing;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** The position of the last batch handed on (or of the last `resume`). */
  get position(): ChangePosition {
    return this.positionNow;
  }

  subscribe(subscriber: CredentialChangeSubscriber): CredentialChangeSubscription | null {
    if (!this.hearing) return null;
    this.subscribers.add(subscriber);
    return { position: this.positionNow, unsubscribe: () => this.subscribers.delete(subscriber) };
  }

  watch(watcher: CredentialChangeWatcher): void {
    this.watchers.push(watcher);
  }

  /** Changes applied, in order; `position` is the instance's position after them. */
  publish(batch: readonly LoggedChange[], position: ChangePosition): void {
    this.positionNow = position;
    if (batch.length === 0) return;
    for (const watcher of this.watchers) watcher.changes(batch);
    for (const subscriber of [...this.subscribers]) subscriber.changes(batch);
  }

  /** The instance stopped hearing changes: everyone is told, and new subscribers wait for `resume`. */
  suspend(): void {
    this.hearing = false;
    for (const watcher of this.watchers) watcher.reset();
    this.interruptAll();
  }

  /**
   * Hearing again, or told that anything may have changed: either way changes may have been
   * missed, so the current subscribers are interrupted, watchers reset, and new subscribers are
   * welcome from `position` on.
   */
  resume(position: ChangePosition): void {
    this.positionNow = position;
    for (const watcher of this.watchers) watcher.reset();
    this.interruptAll();
    this.hearing = true;
  }

  private interruptAll(): void {
    const ended = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of ended) subscriber.interrupted();
  }
}
