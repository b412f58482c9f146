import type {
  CredentialChangeFeed, CredentialChangeSubscriber, CredentialChangeSubscription,
} from '../../application/ports/credential-change-feed';
import type { CredentialChange } from '../../application/ports/credential-states';

/**
 * Hands each credential change the instance hears to every subscriber (the change streams of
 * verifying services), in process, synchronously. It follows the instance's own hearing: while the
 * instance is deaf (its change listener is disconnected) nobody may subscribe, and every
 * subscription is ended with `interrupted` when hearing is lost, or when something unreadable was
 * heard, so subscribers drop what they remember and come back.
 */
export class CredentialChangeFanOut implements CredentialChangeFeed {
  private readonly subscribers = new Set<CredentialChangeSubscriber>();
  private hearing: boolean;

  /** `hearing` false: subscriptions are refused until `resume` (an instance that starts deaf). */
  constructor(hearing = true) {
    this.hearing = hearing;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  subscribe(subscriber: CredentialChangeSubscriber): CredentialChangeSubscription | null {
    if (!this.hearing) return null;
    this.subscribers.add(subscriber);
    return { unsubscribe: () => this.subscribers.delete(subscriber) };
  }

  publish(change: CredentialChange): void {
    for (const subscriber of [...this.subscribers]) subscriber.change(change);
  }

  /** The instance stopped hearing changes: every subscriber is told, and new ones wait for `resume`. */
  suspend(): void {
    this.hearing = false;
    this.interruptAll();
  }

  /**
   * Hearing again, or told to forget everything: either way changes may have been missed, so the
   * current subscribers are interrupted, and new ones are welcome.
   */
  resume(): void {
    this.interruptAll();
    this.hearing = true;
  }

  private interruptAll(): void {
    const ended = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of ended) subscriber.interrupted();
  }
}
