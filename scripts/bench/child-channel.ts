import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Server } from 'node:http';
import { READY_PREFIX, type ChildInfo, type ChildMessage, type MemoryBreakdown, type ParentMessage } from './protocol';

const NS_PER_MS = 1e6;
/** The histogram's timer interval: it records the time between ticks, so this much is not delay. */
const RESOLUTION_MS = 10;

function lateness(ns: number): number {
  return Number.isFinite(ns) ? Math.max(0, ns / NS_PER_MS - RESOLUTION_MS) : 0;
}

/**
 * The child's side of the bench channel: an event-loop delay histogram the parent resets and reads
 * around each run, an info request, and a clean shutdown. Also exits if the parent goes away, so a
 * killed bench never leaves a server behind.
 */
export function memoryBreakdown(): MemoryBreakdown {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapTotal, heapUsed, external, arrayBuffers };
}

export function serveBenchChannel(server: Server, info: () => ChildInfo, close: () => Promise<void>): void {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();

  const send = (message: ChildMessage): void => {
    if (process.send) process.send(message);
  };

  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    delay.disable();
    server.close();
    server.closeAllConnections();
    void close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };

  process.on('message', (raw: ParentMessage) => {
    switch (raw.type) {
      case 'eld-reset':
        delay.reset();
        break;
      case 'eld-read':
        send({
          type: 'eld',
          id: raw.id,
          delay: {
            p50: lateness(delay.percentile(50)),
            p99: lateness(delay.percentile(99)),
            max: lateness(delay.max),
            mean: lateness(delay.mean),
          },
        });
        break;
      case 'info':
        send({ type: 'info', id: raw.id, info: info() });
        break;
      case 'shutdown':
        shutdown();
        break;
    }
  });
  process.on('disconnect', shutdown);
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

export function announceReady(server: Server): void {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server is not listening on a TCP port');
  process.stdout.write(`${READY_PREFIX}${address.port}\n`);
}

/** Node options and allocator settings of this process, as the report shows them. */
export function describeLaunch(): string {
  const settings = ['UV_THREADPOOL_SIZE', 'MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]}`);
  const options = process.execArgv.filter((arg) => !arg.startsWith('--cpu-prof'));
  return [`node${options.length > 0 ? ` ${options.join(' ')}` : ''}`, ...settings].join(', ');
}
