import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../../src/bootstrap/redis';
import { describeIfAvailable, type ExternalService } from './external-service';

/** REDIS_URL names the server; REQUIRE_REDIS=1 (CI) turns a missing one into a failure. */
const REDIS: ExternalService = {
  label: 'Redis',
  urlVariable: 'REDIS_URL',
  requireVariable: 'REQUIRE_REDIS',
  clientModule: 'ioredis',
  probe: `
    const { Redis } = require(process.argv[1]);
    const client = new Redis(process.argv[2], { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    client.connect().then(() => client.ping()).then(
      () => client.quit().then(() => process.exit(0)),
      (error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });`,
};

export function describeIfRedis(name: string, body: (url: string) => void): void {
  describeIfAvailable(REDIS, name, body);
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
