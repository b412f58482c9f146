import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../../src/bootstrap/redis';

/**
 * Whether tests run against a real Redis. REDIS_URL names it; without one the Redis suites are
 * skipped, unless REQUIRE_REDIS=1 (CI), where a missing or unreachable server must fail the run
 * rather than silently shrink it. Modelled on ./postgres.ts.
 */
export type RedisForTests =
  | { readonly kind: 'available'; readonly url: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string };

const PROBE_TIMEOUT_MS = 10_000;

export function redisForTests(env: NodeJS.ProcessEnv = process.env): RedisForTests {
  const url = env['REDIS_URL'];
  const required = env['REQUIRE_REDIS'] === '1';
  if (!url) {
    return required
      ? { kind: 'fail', reason: 'REQUIRE_REDIS=1 but REDIS_URL is not set' }
      : { kind: 'skip', reason: 'REDIS_URL is not set' };
  }
  const problem = probe(url);
  if (problem === null) return { kind: 'available', url };
  const reason = `Redis at REDIS_URL is unreachable: ${problem}`;
  return required ? { kind: 'fail', reason } : { kind: 'skip', reason };
}

/** A describe block that runs with the Redis URL, is skipped without one, or fails loudly when required. */
export function describeIfRedis(name: string, body: (url: string) => void): void {
  const redis = redisForTests();
  if (redis.kind === 'available') {
    describe(name, () => body(redis.url));
  } else if (redis.kind === 'skip') {
    // A URL that was set but does not answer is worth a line: the skip is probably not intended.
    if (process.env['REDIS_URL']) console.warn(`${name}: skipped, ${redis.reason}`);
    describe.skip(`${name} (skipped: ${redis.reason})`, () => {
      test.todo('set REDIS_URL to run');
    });
  } else {
    describe(name, () => {
      test('Redis is available', () => {
        throw new Error(redis.reason);
      });
    });
  }
}

/**
 * Jest collects tests synchronously, so reachability is checked in a child process: connect and
 * PING with the project's own ioredis. Returns null when that works, else the reason.
 */
function probe(url: string): string | null {
  const script = `
    const { Redis } = require(process.argv[1]);
    const client = new Redis(process.argv[2], { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    client.connect().then(() => client.ping()).then(
      () => client.quit().then(() => process.exit(0)),
      (error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, require.resolve('ioredis'), url], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (result.status === 0) return null;
  return result.error?.message ?? (result.stderr.trim() || `probe exited with ${result.status}`);
}

/**
 * A key prefix no other test shares, so test files (and tests) can run in parallel on one Redis
 * without meeting each other's counters. Everything a test writes starts with it.
 */
export function uniqueRedisPrefix(label = 'test'): string {
  return `portcullis-test:${label}:${process.pid}:${randomBytes(6).toString('hex')}:`;
}

/** A client as main makes one (same timeouts), connected; errors it reports on its own are collected. */
export async function connectTestRedis(url: string): Promise<{ client: Redis; errors: Error[] }> {
  const errors: Error[] = [];
  const client = createRedisClient(url, (error) => errors.push(error));
  await client.connect();
  return { client, errors };
}

/** Every key under the prefix. SCAN rather than KEYS, which would block a shared Redis. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Removes what a test wrote; call it in afterEach/afterAll with the test's prefix. */
export async function deleteKeysUnder(client: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(...keys);
}
