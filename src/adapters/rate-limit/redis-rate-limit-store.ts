import type { Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';

/**
 * rate-limit-redis (express-rate-limit's own Redis store) loads its Lua script once, in init, and
 * awaits that promise on every increment. If Redis did not answer at that moment the promise stays
 * rejected, and the limiter would refuse every request until a restart even after Redis is back.
 * After a failed increment this reloads the script on the next one, so the limiter heals by itself.
 * (NOSCRIPT after a Redis restart the library already handles.)
 */
export class RecoveringRedisStore extends RedisStore {
  private reloadScript = false;

  override async increment(key: string): ReturnType<RedisStore['increment']> {
    if (this.reloadScript) {
      this.reloadScript = false;
      this.incrementScriptSha = this.loadIncrementScript();
    }
    try {
      return await super.increment(key);
    } catch (error) {
      this.reloadScript = true;
      throw error;
    }
  }
}

/**
 * One store per limiter, each under its own prefix (`<keyPrefix>rl:<limiter>:`), so that every
 * limiter keeps its own counters while all instances on one Redis share them. express-rate-limit
 * refuses a store shared by two limiters, hence a factory rather than a store.
 */
export function redisRateLimitStores(client: Redis, keyPrefix: string): (limiter: string) => Store {
  return (limiter) => new RecoveringRedisStore({
    prefix: `${keyPrefix}rl:${limiter}:`,
    sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<RedisReply>,
  });
}
