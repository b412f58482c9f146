import type { ChangePositions } from '../../application/ports/change-positions';
import type { Freshness } from '../../application/ports/freshness';
import type { ChangePosition } from '../../domain/change-position';
import { AuthenticationUnavailable } from '../../domain/errors';

export interface FreshnessCheckOptions {
  /** The longest a request waits to hear that the instance is fresh; then it is refused (FRESHNESS_TIMEOUT_MS). */
  readonly timeoutMs: number;
}

export const DEFAULT_FRESHNESS_TIMEOUT_MS = 1_000;

/** One check and every request waiting on it. */
interface Round {
  readonly answer: Promise<ChangePosition>;
  readonly resolve: (position: ChangePosition) => void;
  readonly reject: (error: unknown) => void;
  readonly timer: NodeJS.Timeout;
  settled: boolean;
}

/**
 * Freshness for an instance that shares its database with other writers (other instances, an
 * operator's SQL): the database's notification usually arrives first, but it crosses a socket, so a
 * request sent right after a commit can overtake it. Before answering from memory, a request waits
 * for a check that reads the change log's head and, when the head is past the instance's position,
 * catches the instance up (ChangePositions.reach).
 *
 * A check must start after the request arrived, or it could miss a commit the request's sender
 * already saw. So checks are shared, not cached: every request that asks in the same turn of the
 * event loop joins the next check, which starts at the end of that turn; one check runs at a time,
 * and requests that ask while it runs join the one queued behind it, which starts at the end of the
 * turn it ends in. At most one check in flight and one queued, however many requests wait: the cost is one
 * statement per round, not per request.
 *
 * Each round gives up after `timeoutMs` from its first request: its requests are refused with
 * AuthenticationUnavailable (503), never answered from memory. A check that is still running keeps
 * its place (the pool's own timeouts end it), so a database that hangs is not asked again and again.
 */
export class SharedFreshnessCheck implements Freshness {
  private queued: Round | undefined;
  private inFlight = false;
  private failing = false;

  constructor(
    private readonly readHead: () => Promise<ChangePosition>,
    private readonly positions: ChangePositions,
    private readonly onError: (error: unknown) => void,
    private readonly options: FreshnessCheckOptions = { timeoutMs: DEFAULT_FRESHNESS_TIMEOUT_MS },
  ) {}

  confirm(): Promise<ChangePosition> {
    if (this.queued) return this.queued.answer;
    const round = this.newRound();
    this.queued = round;
    // The rest of this turn's requests join it; a check in flight starts it when it ends.
    if (!this.inFlight) setImmediate(() => this.startQueued());
    return round.answer;
  }

  private newRound(): Round {
    let resolve!: (position: ChangePosition) => void;
    let reject!: (error: unknown) => void;
    const answer = new Promise<ChangePosition>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const timer = setTimeout(() => {
      if (this.queued === round) this.queued = undefined; // never started: later requests get a round of their own
      this.settle(round, () => round.reject(new AuthenticationUnavailable(new Error(`no freshness check within ${this.options.timeoutMs} ms`))));
    }, this.options.timeoutMs);
    timer.unref();
    const round: Round = { answer, resolve, reject, timer, settled: false };
    return round;
  }

  private startQueued(): void {
    const round = this.queued;
    if (!round || this.inFlight) return;
    this.queued = undefined;
    this.inFlight = true;
    this.check().then(
      (position) => {
        this.failing = false;
        this.settle(round, () => round.resolve(position));
      },
      (error: unknown) => {
        // Once per outage in the log, not once per round: rounds come as fast as requests do.
        if (!this.failing) this.onError(error);
        this.failing = true;
        this.settle(round, () => round.reject(new AuthenticationUnavailable(error)));
      },
    ).finally(() => {
      this.inFlight = false;
      // Its requests all arrived before this check ended. It starts at the end of this turn, not
      // now: requests read in the rest of this turn (often in the same poll as this answer) join it
      // instead of waiting for a round of their own.
      if (this.queued) setImmediate(() => this.startQueued());
    });
  }

  private async check(): Promise<ChangePosition> {
    const head = await this.readHead();
    const { positions } = this;
    return head > positions.current ? positions.reach(head) : positions.current;
  }

  private settle(round: Round, outcome: () => void): void {
    if (round.settled) return;
    round.settled = true;
    clearTimeout(round.timer);
    outcome();
  }
}
