import type { DeliveryPass, MailDelivery } from '../application/mail/mail-delivery';

/** How often an instance looks in the outbox when nothing woke it sooner. */
export const DEFAULT_MAIL_POLL_MS = 1_000;
/** How often an instance drops finished messages past their keeping time. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Runs the delivery passes of one instance: every `pollMs` in the background once started, at
 * once when asked (`deliverNow`, for the test kit and tests), and never two passes at a time in
 * this process. Several instances share the outbox safely: claims are leases (MailOutboxRepository).
 * A pass that filled its batch is followed by another straight away.
 */
export class MailWorker {
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly delivery: MailDelivery,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs: number = DEFAULT_MAIL_POLL_MS,
  ) {}

  /** One pass, after any pass already running. */
  deliverNow(): Promise<DeliveryPass> {
    const pass = this.running.then(() => this.delivery.deliverDue());
    this.running = pass.catch(() => undefined);
    return pass;
  }

  /** Passes until one finds nothing due (a pass claims one batch): for the test kit and tests. */
  async deliverAllDue(): Promise<void> {
    while ((await this.deliverNow()).claimed > 0) { /* the next batch */ }
  }

  start(): void {
    if (this.timer || this.stopped) return;
    const tick = async (): Promise<void> => {
      let full = false;
      try {
        full = (await this.deliverNow()).claimed >= this.delivery.batchSize;
      } catch (error) {
        this.onError(error);
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), full ? 0 : this.pollMs);
    };
    this.timer = setTimeout(() => void tick(), 0);
    this.pruner = setInterval(() => void this.delivery.prune().catch(this.onError), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    await this.running;
  }
}
