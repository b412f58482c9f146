import type { ChangePositions } from '../../application/ports/change-positions';
import type { CredentialChangeLog, LoggedChange } from '../../application/ports/credential-change-log';
import type { CredentialStates } from '../../application/ports/credential-states';
import { type ChangePosition, NO_CHANGE } from '../../domain/change-position';
import type { CredentialChangeFanOut } from './credential-change-fan-out';

/** The instance's credential cache, as the follower drives it (CachedCredentialStates). */
export interface FollowedCache extends CredentialStates {
  /** Keep nothing until `resume`: changes may go unheard. */
  suspend(): void;
  /** Forget everything and keep again. */
  resume(): void;
  /** Answer nothing from memory until `unfence`: the log has grown and is being read. */
  fence(): void;
  unfence(): void;
}

export interface FollowerOptions {
  /**
   * Changes read per statement; a longer backlog is read in several. One page is one write on each
   * change stream, so it stays well under a stream's bound on unsent data (change-stream.ts).
   */
  readonly pageSize: number;
  /** Wait before reading again after a failed read. */
  readonly retryMs: number;
  /**
   * Read the log this often even without a notification, so a notification lost without the
   * listener noticing delays a change by this much at most. Unset: only when told.
   */
  readonly pollMs?: number | undefined;
  /** Prune the log this often (every instance does; pruning twice is harmless). Unset: never. */
  readonly pruneEveryMs?: number | undefined;
}

export const DEFAULT_FOLLOWER: FollowerOptions = { pageSize: 500, retryMs: 1_000 };

/**
 * Follows the credential change log (application/ports/credential-change-log.ts) for one
 * instance, and is its position (domain/change-position.ts). Each time it is woken (the database
 * notified that the log has grown, this instance committed a change, a timer) it reads every
 * change after its position, at most one read at a time and one per turn of the event loop however
 * many wake-ups came in it, and for each batch read, in order:
 *
 * 1. the credential cache forgets every member, key and session named;
 * 2. the position moves to the last change read;
 * 3. the fan-out hands the batch on (verifiers' change streams, the trusted service keys).
 *
 * So what the position promises (everything at or before it is reflected in what the instance
 * answers) holds as soon as the position moves. A position that skips (rows pruned before this
 * instance read them) or goes back (a database restored) means changes may have been missed:
 * everything is forgotten, streams are reset, and following goes on from the head. So does a
 * logged `everything`.
 */
export class CredentialChangeFollower implements ChangePositions {
  private applied: ChangePosition = NO_CHANGE;
  private hearing = false;
  private closed = false;
  /** Wake-ups so far, and the count the last read to start had seen: a fence lifts only after a read that began after it. */
  private wakes = 0;
  private fencedAt = -1;
  private scheduled = false;
  private reading: Promise<void> | undefined;
  private again = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Passes over the log started so far, and the callers of `reach` waiting for one that started after them. */
  private passes = 0;
  private waiting: Array<{ readonly after: number; readonly resolve: (position: ChangePosition) => void; readonly reject: (error: unknown) => void }> = [];

  constructor(
    private readonly log: CredentialChangeLog,
    private readonly cache: FollowedCache,
    private readonly fanOut: CredentialChangeFanOut,
    private readonly onError: (error: unknown) => void,
    private readonly options: FollowerOptions = DEFAULT_FOLLOWER,
  ) {}

  get current(): ChangePosition {
    return this.applied;
  }

  /**
   * Hearing changes (at start, or again after `lost`): what happened meanwhile may have gone
   * unheard, so the position jumps to the head, the cache starts from nothing, and change streams
   * are welcome again. Rejects when the head cannot be read; the caller tries again.
   */
  async listening(): Promise<void> {
    const { head } = await this.log.read(Number.MAX_SAFE_INTEGER, 0);
    if (this.closed) return;
    this.applied = head;
    this.hearing = true;
    this.cache.resume();
    this.cache.unfence();
    this.fanOut.resume(head);
    this.startTimers();
  }

  /** No longer hearing: remember nothing, end the streams, refuse new ones until `listening`. */
  lost(): void {
    this.hearing = false;
    this.cache.suspend();
    this.fanOut.suspend();
  }

  /**
   * The log may have grown. `fence`: the cache may hold what changed (another writer's change, as
   * the database's notification says), so nothing is answered from memory until it has been read;
   * this instance's own commits need no fence, its unit of work has already forgotten them.
   */
  wake(fence: boolean): void {
    if (this.closed) return;
    this.wakes += 1;
    if (fence) {
      this.fencedAt = this.wakes;
      this.cache.fence();
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.closed) this.pump().catch(() => undefined);
    });
  }

  /**
   * Resolves after the first pass over the log that starts after the call, not when reading stops:
   * under a steady stream of changes the reading goes round again and again, and a caller (every
   * freshness check) must not wait for a quiet moment that may not come.
   */
  reach(position: ChangePosition): Promise<ChangePosition> {
    if (position <= this.applied) return Promise.resolve(this.applied);
    return new Promise((resolve, reject) => {
      this.waiting.push({ after: this.passes, resolve, reject });
      this.pump().catch(() => undefined); // a failed pass rejects the waiters itself
    });
  }

  /** Resolves once every change committed before the call has been applied (for tests and the test kit). */
  async caughtUp(): Promise<ChangePosition> {
    await this.pump();
    return this.applied;
  }

  close(): void {
    this.closed = true;
    this.settleWaiters(Number.POSITIVE_INFINITY);
    clearTimeout(this.retry);
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** A read that starts after this call, joined if one is already running (it then goes round once more). */
  private pump(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readUntilCurrent().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async readUntilCurrent(): Promise<void> {
    do {
      this.again = false;
      const wakesSeen = this.wakes;
      const pass = ++this.passes;
      try {
        await this.readAll();
      } catch (error) {
        if (this.closed) return; // the storage is going away with it: nothing to report or retry
        // The cache stays fenced (nothing answered from memory) until a read succeeds.
        this.onError(error);
        this.scheduleRetry();
        this.settleWaiters(Number.POSITIVE_INFINITY, error); // reading stops here: nobody waits on for it
        throw error;
      }
      if (wakesSeen >= this.fencedAt) this.cache.unfence();
      this.settleWaiters(pass);
    } while (this.again);
  }

  /** Every caller of `reach` that was waiting before pass `pass` began: it has been read for them (or failed). */
  private settleWaiters(pass: number, error?: unknown): void {
    if (this.waiting.length === 0) return;
    const settled = this.waiting.filter((waiter) => waiter.after < pass);
    this.waiting = this.waiting.filter((waiter) => waiter.after >= pass);
    for (const waiter of settled) {
      if (error === undefined) waiter.resolve(this.applied);
      else waiter.reject(error);
    }
  }

  private async readAll(): Promise<void> {
    const { pageSize } = this.options;
    for (;;) {
      const from = this.applied;
      const { head, changes } = await this.log.read(from, pageSize);
      if (this.closed) return;
      if (this.applied !== from) continue; // someone reset the position meanwhile (listening): read from there
      const first = changes[0];
      if (head < from || (first ? first.position !== from + 1 : head > from)) {
        this.startOver(head); // restored, or pruned past us: changes may have been missed
        return;
      }
      this.apply(changes);
      if (changes.length < pageSize) return;
    }
  }

  private apply(changes: readonly LoggedChange[]): void {
    if (changes.length === 0) return;
    let start = 0;
    for (let i = 0; i < changes.length; i += 1) {
      const change = changes[i]!;
      if (change.kind === 'everything') {
        this.handOn(changes.slice(start, i));
        this.startOver(change.position);
        start = i + 1;
      } else if (change.kind === 'user' || change.kind === 'api-key' || change.kind === 'session') {
        this.cache.forget(change);
      }
    }
    this.handOn(changes.slice(start));
  }

  private handOn(batch: readonly LoggedChange[]): void {
    if (batch.length === 0) return;
    this.applied = batch[batch.length - 1]!.position;
    if (this.hearing) this.fanOut.publish(batch, this.applied);
  }

  private startOver(position: ChangePosition): void {
    this.applied = position;
    if (!this.hearing) return;
    this.cache.resume();
    this.fanOut.resume(position);
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.wake(false);
    }, this.options.retryMs);
    this.retry.unref();
  }

  private startTimers(): void {
    if (this.timers.length > 0) return;
    const { pollMs, pruneEveryMs } = this.options;
    if (pollMs !== undefined) this.timers.push(setInterval(() => this.wake(false), pollMs));
    if (pruneEveryMs !== undefined) {
      this.timers.push(setInterval(() => {
        this.log.prune().catch((error: unknown) => this.onError(error));
      }, pruneEveryMs));
    }
    for (const timer of this.timers) timer.unref();
  }
}
