import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * CPU pinning for a bench that compares two servers' throughput: the load generator (this process)
 * on one core, the server under test on another, every thread of each. Without it, on a 2-core
 * machine the server, autocannon and anything else running share both cores as the scheduler
 * pleases, and the same server's CPU per request was seen to vary by half again between
 * repetitions. Pinned, each server gets a core of its own and the comparison is of their own work.
 * BENCH_PIN=0 turns it off; it is off by itself where taskset or a second core is missing.
 */
export interface Pinning {
  readonly enabled: boolean;
  /** Why it is off, or which cores it uses. */
  readonly description: string;
  /** Pins a server's every thread to the server core (a no-op when disabled). */
  pinServer(pid: number): void;
}

const LOAD_CORE = 0;
const SERVER_CORE = 1;

function taskset(args: readonly string[]): boolean {
  const result = spawnSync('taskset', args, { stdio: 'ignore' });
  return result.status === 0;
}

export function pinForComparison(): Pinning {
  const off = (why: string): Pinning => ({ enabled: false, description: `not pinned (${why})`, pinServer: () => undefined });
  if (process.env['BENCH_PIN'] === '0') return off('BENCH_PIN=0');
  if (process.platform !== 'linux') return off('not Linux');
  if (availableParallelism() < 2) return off('one core');
  if (!taskset(['-a', '-cp', String(LOAD_CORE), String(process.pid)])) return off('taskset is missing or refused');
  return {
    enabled: true,
    description: `pinned: autocannon (the bench process) on core ${LOAD_CORE}, the server under test on core ${SERVER_CORE}`,
    pinServer: (pid) => {
      if (!taskset(['-a', '-cp', String(SERVER_CORE), String(pid)])) throw new Error(`bench: could not pin pid ${pid} to core ${SERVER_CORE}`);
    },
  };
}
