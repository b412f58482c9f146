import type { Redis } from 'ioredis';
import {
  LoginThrottleUnavailable, type LoginFailurePolicy, type LoginThrottle, type ThrottleDecision,
} from '../../application/ports/login-throttle';

/**
 * One round trip, atomic because Redis runs a script without interleaving: count the attempt, and
 * give the key its expiry if it has none (a new key, or one that somehow lost it, which would
 * otherwise throttle the account forever). The window is fixed: later attempts never extend it.
 * Plain INCR + PEXPIRE would leave a key without expiry if the process died between the two.
 */
const RECORD_ATTEMPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

export interface RedisLoginThrottleOptions extends LoginFailurePolicy {
  /** Prepended to every key, e.g. `portcullis:`; the throttle adds `login-failures:` and the account key. */
  readonly keyPrefix: string;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * The per-account login throttle in Redis, shared by every instance using the same Redis and prefix.
 * Keys hold only the opaque account key (a SHA-256, never an e-mail) and expire with their window,
 * so Redis holds nothing for longer than the window. Every Redis failure, and any reply that is not
 * the script's two integers, becomes LoginThrottleUnavailable: the login is refused, never let through.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly windowMs: string;

  constructor(
    private readonly client: Redis,
    private readonly options: RedisLoginThrottleOptions,
  ) {
    this.windowMs = String(options.windowSeconds * 1000);
  }

  async recordAttempt(accountKey: string): Promise<ThrottleDecision> {
    let reply: unknown;
    try {
      // EVAL rather than EVALSHA: Redis caches the compiled script either way, and there is no
      // NOSCRIPT to recover from after a Redis restart or SCRIPT FLUSH.
      reply = await this.client.eval(RECORD_ATTEMPT, 1, this.key(accountKey), this.windowMs);
    } catch (error) {
      throw new LoginThrottleUnavailable(error);
    }
    if (!Array.isArray(reply) || !isCount(reply[0]) || !isCount(reply[1])) {
      throw new LoginThrottleUnavailable(new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`));
    }
    const [count, ttlMs] = reply as [number, number];
    if (count <= this.options.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  async reset(accountKey: string): Promise<void> {
    try {
      await this.client.del(this.key(accountKey));
    } catch (error) {
      throw new LoginThrottleUnavailable(error);
    }
  }

  private key(accountKey: string): string {
    return `${this.options.keyPrefix}login-failures:${accountKey}`;
  }
}
