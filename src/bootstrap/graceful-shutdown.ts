import type { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Closeables } from './closeables';

export interface ShutdownSettings {
  /** From the signal: how long in-flight requests get before their connections are cut. */
  readonly graceMs: number;
  /** From the signal: how long readiness says 503 while the server still accepts (load balancers catch up). */
  readonly delayMs: number;
}

/** After the grace period, closing the resources gets this long before the process is ended regardless. */
export const HARD_DEADLINE_AFTER_GRACE_MS = 5_000;

/**
 * Graceful shutdown of one HTTP server and the resources behind it:
 *
 * 1. on the first SIGTERM or SIGINT, `draining` turns true: /readyz answers 503, and every
 *    response from then on (in-flight ones included) carries `Connection: close`, so keep-alive
 *    clients move to another instance;
 * 2. after `delayMs`, the server stops accepting connections and idle keep-alive ones are closed;
 * 3. in-flight requests finish (a login in progress completes), each connection closing after its
 *    response; once none is left, the closeables are closed and the process exits 0;
 * 4. at `graceMs` any connection still open is cut, the closeables are closed, and the exit code
 *    is 1; if closing hangs, the process exits 1 at HARD_DEADLINE_AFTER_GRACE_MS after that.
 *
 * A second signal ends the process at once (exit 1): the operator insists.
 */
export class GracefulShutdown {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(
    private readonly server: Server,
    private readonly closeables: Closeables,
    private readonly settings: ShutdownSettings,
    private readonly logger: Logger,
    private readonly exit: (code: number) => void,
  ) {
    // Must be the server's first 'request' listener (added before the app), so that it runs before
    // any response can have been sent.
    server.on('request', (_req, res: ServerResponse) => {
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
    });
  }

  get isShuttingDown(): boolean {
    return this.draining;
  }

  /** Installs the signal handlers. */
  listen(): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (this.draining) {
          this.logger.warn({ signal }, 'second signal during shutdown: exiting now');
          this.exit(1);
          return;
        }
        void this.run(signal);
      });
    }
  }

  async run(reason: string): Promise<void> {
    const { graceMs, delayMs } = this.settings;
    this.draining = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    this.logger.info({ reason, graceMs, delayMs, inFlight: this.inFlight.size }, 'shutting down: readiness now 503');

    const hardDeadline = setTimeout(() => {
      this.logger.fatal('shutdown: resources did not close in time, exiting');
      this.exit(1);
    }, graceMs + HARD_DEADLINE_AFTER_GRACE_MS);
    hardDeadline.unref();

    if (delayMs > 0) await sleep(delayMs);
    const drained = await this.drain(graceMs - delayMs);
    const closed = await this.closeables.closeAll();
    clearTimeout(hardDeadline);
    this.logger.info({ drained, closed }, drained && closed ? 'shutdown complete' : 'shutdown complete, not cleanly');
    this.exit(drained && closed ? 0 : 1);
  }

  /** Stops accepting and waits for open connections to end; cuts them after `waitMs`. True when none had to be cut. */
  private drain(waitMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn({ inFlight: this.inFlight.size }, 'shutdown: grace period over, closing the remaining connections');
        this.server.closeAllConnections();
        resolve(false);
      }, Math.max(0, waitMs));
      this.server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
      this.server.closeIdleConnections();
      this.logger.info({ inFlight: this.inFlight.size }, 'stopped accepting connections');
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
