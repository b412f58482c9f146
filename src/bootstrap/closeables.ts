import type { Logger } from 'pino';

interface Closeable {
  readonly name: string;
  close(): Promise<void> | void;
}

/**
 * Everything the process opened that must be let go of on the way out (database pool, Redis, a
 * listener connection, the metrics server). Each is added right after it is opened, so a failed
 * start closes what had been opened and a shutdown closes everything, with one line per resource:
 *
 *   closeables.add('redis', () => closeRedis(redis));
 */
export class Closeables {
  private readonly items: Closeable[] = [];

  /** Without a logger, nothing is said of what closed, or of what failed to close (the first failure is thrown). */
  constructor(private readonly logger?: Logger) {}

  add(name: string, close: () => Promise<void> | void): void {
    this.items.push({ name, close });
  }

  /**
   * Closes in the reverse order of opening (what was opened later may depend on what came
   * before), each once; a failure is logged and the rest still closed. True when all closed cleanly.
   */
  async closeAll(): Promise<boolean> {
    let clean = true;
    let failure: unknown;
    for (const item of this.items.splice(0).reverse()) {
      try {
        await item.close();
        this.logger?.info({ resource: item.name }, `closed ${item.name}`);
      } catch (error) {
        clean = false;
        if (this.logger) this.logger.error({ err: error, resource: item.name }, `could not close ${item.name}`);
        else failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
    return clean;
  }
}
