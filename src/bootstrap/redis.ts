import { Redis, type RedisOptions } from 'ioredis';

/**
 * A rate limit waits on Redis before every request it counts, so a Redis that is down or hung must
 * turn into a quick refusal (503), not a request that hangs:
 * - connectTimeout: give up on a connection attempt after 2 s;
 * - commandTimeout: no command waits more than 1 s for its reply, queued ones included;
 * - maxRetriesPerRequest 1: a command caught by a dropped connection is retried once after the
 *   reconnect, then fails, instead of ioredis's default 20 tries.
 * The offline queue stays on so that a momentary reconnect costs a little latency, not errors.
 */
export const REDIS_OPTIONS: RedisOptions = {
  connectTimeout: 2_000,
  commandTimeout: 1_000,
  maxRetriesPerRequest: 1,
  lazyConnect: true,
};

/**
 * A client for the URL with the options above, not yet connected. Errors ioredis reports on its own
 * (a lost connection, each failed reconnect) go to `onError`: without a listener ioredis prints them.
 */
export function createRedisClient(url: string, onError: (error: Error) => void, overrides: RedisOptions = {}): Redis {
  const client = new Redis(url, { ...REDIS_OPTIONS, ...overrides });
  client.on('error', onError);
  return client;
}

/**
 * Connects and checks Redis answers, or throws: main refuses to start rather than serve with rate
 * limits that would answer every request 503. Once running, ioredis reconnects by itself.
 */
export async function openRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  let lastError: Error | undefined; // connect() itself only says "Connection is closed"
  const client = createRedisClient(url, (error) => {
    lastError = error;
    onError(error);
  });
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    const reason = lastError ?? error;
    throw new Error(`Redis at ${redactRedisUrl(url)} is unreachable: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/** QUIT lets pending replies arrive; if Redis does not answer it, the socket is closed anyway. */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

export function redactRedisUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
