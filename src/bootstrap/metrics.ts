import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { HttpMetrics } from '../adapters/http/middleware/http-metrics';
import type { PoolStats } from '../adapters/persistence/kysely/driver/dialects';

/**
 * The process's metrics: the HTTP adapter's own, Node's defaults (event-loop lag, heap, GC, CPU,
 * open handles) and, on Postgres, the connection pool, all on one registry made here, never the
 * global one.
 */
export function createMetrics(poolStats: (() => PoolStats) | undefined): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (poolStats) registerPoolGauges(registry, poolStats);
  return new HttpMetrics(registry);
}

/** Read from the pool when scraped, so they cost nothing between scrapes. */
function registerPoolGauges(registry: Registry, poolStats: () => PoolStats): void {
  const registers = [registry];
  new Gauge({
    name: 'portcullis_db_pool_in_use',
    help: 'Database connections checked out of the pool (running a statement or holding a transaction)',
    registers,
    collect() {
      const { total, idle } = poolStats();
      this.set(total - idle);
    },
  });
  new Gauge({
    name: 'portcullis_db_pool_idle',
    help: 'Open database connections waiting in the pool',
    registers,
    collect() {
      this.set(poolStats().idle);
    },
  });
  new Gauge({
    name: 'portcullis_db_pool_waiting',
    help: 'Requests queued for a database connection because every one is in use',
    registers,
    collect() {
      this.set(poolStats().waiting);
    },
  });
}
