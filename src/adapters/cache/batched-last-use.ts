import type { Clock } from '../../application/ports/clock';

export interface LastUseOptions {
  /** How long uses are gathered before they are written. */
  readonly intervalMs: number;
  /**
   * Records one write statement holds at most. Up to this many distinct records an interval, the
   * interval's write is one statement; past it, one statement per this many records, one after the
   * other, so that no statement runs into the statement timeout or holds its row locks for long.
   */
  readonly keysPerStatement: number;
  /**
   * Distinct records gathered at most. A batch that reaches it is written at once, before its
   * interval is over: memory stays bounded, at the cost of an early write in such an interval.
   */
  readonly maxPending: number;
}

/** One record's latest use in a batch: a key's or a session's, by id within its tenant. */
export interface LastUse {
  readonly tenantId: string;
  readonly id: string;
  readonly at: Date;
}

/** A record's latest use as the batch holds it, in epoch ms. */
export interface LastUseMs {
  readonly tenantId: string;
  readonly id: string;
  readonly atMs: number;
}

interface PendingUse extends LastUseMs {
  atMs: number;
}

/**
 * Keeps a "last used" column with one write per interval per instance, however often each record is
 * used: each use only updates an entry in memory (the record's latest use), and the batch is
 * written, one statement per `keysPerStatement` records, when its interval is over: by the first use
 * after that, or by a check every few seconds when no request comes. Time is the Clock's, so the
 * interval follows the clock the requests are stamped with. Never on a request's path: the write
 * starts from setImmediate, is never awaited by a request, and one write at most is in flight. A
 * failed write is handed to `onError`; its uses are dropped (the next use of each record writes it
 * again). `close` writes what is left. API keys' last_used_at and sessions' last_seen_at use it.
 */
export class BatchedLastUse {
  private pending = new Map<string, PendingUse>();
  private batchStartedMs = 0;
  private writing: Promise<void> | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (uses: LastUse[]) => Promise<void>,
    protected readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    private readonly options: LastUseOptions,
  ) {}

  recordUse(tenantId: string, id: string, at: Date): void {
    const atMs = at.getTime();
    const known = this.pending.get(id);
    if (known) {
      if (known.atMs < atMs) known.atMs = atMs;
    } else {
      if (this.pending.size === 0) this.batchStartedMs = atMs;
      this.pending.set(id, { tenantId, id, atMs });
      this.startTicker();
    }
    this.writeIfDue(atMs);
  }

  /** The latest use of a record gathered in the batch not yet handed to a write, in epoch ms. */
  protected gathered(id: string): number | undefined {
    return this.pending.get(id)?.atMs;
  }

  /** Records gathered and not yet handed to a write. */
  get pendingKeys(): number {
    return this.pending.size;
  }

  /** Resolves once no write is in flight (one that has started, not one still gathering). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Writes every use gathered so far, after the write in flight; resolves once all have finished. */
  async flush(): Promise<void> {
    await this.settled();
    if (this.pending.size > 0) this.startWrite();
    await this.settled();
  }

  /** For shutdown: no more checks, and what is gathered is written before the database closes. */
  async close(): Promise<void> {
    clearInterval(this.ticker);
    this.ticker = undefined;
    await this.flush();
  }

  private writeIfDue(nowMs: number): void {
    if (this.writing || this.pending.size === 0) return;
    if (nowMs - this.batchStartedMs >= this.options.intervalMs || this.pending.size >= this.options.maxPending) this.startWrite();
  }

  /** Told of each batch as it leaves memory for the write, before anything else can run. */
  protected handedOff(_batch: readonly LastUseMs[]): void {}

  private startWrite(): void {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.handedOff(batch);
    const size = this.options.keysPerStatement;
    this.writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        for (let start = 0; start < batch.length; start += size) {
          await this.write(batch.slice(start, start + size).map(toUse)).catch(this.onError);
        }
      })
      .finally(() => {
        this.writing = undefined;
        // Uses that came in meanwhile may be due already (a full batch, or a long write).
        this.writeIfDue(this.clock.now().getTime());
      });
  }

  /** Started with the first use; unref'd, so it never keeps the process alive. */
  private startTicker(): void {
    if (this.ticker) return;
    const everyMs = Math.max(1_000, Math.floor(this.options.intervalMs / 6));
    this.ticker = setInterval(() => this.writeIfDue(this.clock.now().getTime()), everyMs);
    this.ticker.unref();
  }
}

function toUse(pending: PendingUse): LastUse {
  return { tenantId: pending.tenantId, id: pending.id, at: new Date(pending.atMs) };
}
