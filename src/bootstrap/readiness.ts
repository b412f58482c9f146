import type { Readiness, ReadinessReport } from '../adapters/http/routes/readiness';

export interface ReadinessParts {
  /** True from the shutdown signal on: the instance is leaving, whatever its dependencies say. */
  isShuttingDown(): boolean;
  /** The migrations the database lacks; throws when the database does not answer. */
  pendingMigrations(): Promise<string[]>;
  /** Set when REDIS_URL is: resolves when Redis answers. */
  pingRedis?: (() => Promise<unknown>) | undefined;
  /** The longest one check may take before it counts as failed. */
  readonly timeoutMs: number;
}

function within<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work(), timeout]).finally(() => clearTimeout(timer));
}

async function databaseChecks(parts: ReadinessParts): Promise<Record<string, string>> {
  try {
    const pending = await within(parts.timeoutMs, () => parts.pendingMigrations());
    return { database: 'ok', migrations: pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}` };
  } catch {
    return { database: 'unavailable' };
  }
}

async function redisCheck(parts: ReadinessParts): Promise<Record<string, string>> {
  const { pingRedis } = parts;
  if (!pingRedis) return {};
  try {
    await within(parts.timeoutMs, pingRedis);
    return { redis: 'ok' };
  } catch {
    return { redis: 'unavailable' };
  }
}

/**
 * Ready when not shutting down, the database answers with every migration this build knows, and
 * Redis (when configured) answers. Redis counts because every rate-limited route fails closed
 * without it (503), so an instance that cannot reach it serves nothing useful; see
 * docs/operations.md. Checks that arrive while one runs share its answer, so a burst of probes
 * costs one query.
 */
export function readinessProbe(parts: ReadinessParts): Readiness {
  let running: Promise<ReadinessReport> | undefined;
  const run = async (): Promise<ReadinessReport> => {
    const [database, redis] = await Promise.all([databaseChecks(parts), redisCheck(parts)]);
    const checks = { ...database, ...redis };
    if (parts.isShuttingDown()) return { ready: false, checks: { ...checks, shutdown: 'in progress' } };
    return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
  };
  return {
    check: () => {
      if (parts.isShuttingDown()) return Promise.resolve({ ready: false, checks: { shutdown: 'in progress' } });
      running ??= run().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
