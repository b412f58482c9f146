import type { Redis } from 'ioredis';
import {
  type LoginAttempt, LoginThrottleUnavailable, type LoginFailurePolicy, type LoginThrottle, type ThrottleDecision,
} from '../../application/ports/login-throttle';
import { throttleClient } from './throttle-client';

/**
 * One round trip, atomic because Redis runs a script without interleaving: count the attempt for
 * the account from this client (KEYS[1]) and, only if that count allows it, for the account over
 * every address (KEYS[2]), so attempts one address is already refused do not use up the account's
 * ceiling. Each key gets its expiry if it has none (a new key, or one that somehow lost it, which
 * would otherwise throttle forever); the windows are fixed: later attempts never extend them.
 * Answers { 1, 0 } when allowed, { 0, milliseconds left of the refusing window } when not.
 */
const RECORD_ATTEMPT = `
local function count(key)
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return n, ttl
end
local fromClient, clientTtl = count(KEYS[1])
if fromClient > tonumber(ARGV[2]) then return { 0, clientTtl } end
local overall, overallTtl = count(KEYS[2])
if overall > tonumber(ARGV[3]) then return { 0, overallTtl } end
return { 1, 0 }`;

/**
 * A known device's attempt: counted for the account from that device (KEYS[1]) alone, in the same
 * fixed window; the same answers as RECORD_ATTEMPT.
 */
const RECORD_DEVICE_ATTEMPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
if n > tonumber(ARGV[2]) then return { 0, ttl } end
return { 1, 0 }`;

/** A success: this client's failures are forgotten, and the attempt is taken back from the overall count. */
const RECORD_SUCCESS = `
redis.call('DEL', KEYS[1])
local overall = tonumber(redis.call('GET', KEYS[2]) or '0')
if overall and overall > 0 then redis.call('DECR', KEYS[2]) end
return 1`;

export interface RedisLoginThrottleOptions extends LoginFailurePolicy {
  /**
   * Prepended to every key, e.g. `portcullis:`; the throttle adds `login-failures:{<account key>}`
   * (the braces keep an account's two keys in one Redis Cluster slot, as one script needs), and
   * `:<client>` for the count from one client, `:device:<id>` for a known device's.
   */
  readonly keyPrefix: string;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * The login throttle in Redis, shared by every instance using the same Redis and prefix. Keys hold
 * only the opaque account key (a SHA-256, never an e-mail) and the client's address, and expire with their window,
 * so Redis holds nothing for longer than the window. Every Redis failure, and any reply that is not
 * the script's two integers, becomes LoginThrottleUnavailable: the login is refused, never let through.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly windowMs: string;
  private readonly limits: { readonly limit: string; readonly accountLimit: string };

  constructor(
    private readonly client: Redis,
    private readonly options: RedisLoginThrottleOptions,
  ) {
    this.windowMs = String(options.windowSeconds * 1000);
    this.limits = { limit: String(options.limit), accountLimit: String(options.accountLimit) };
  }

  async recordAttempt(attempt: LoginAttempt): Promise<ThrottleDecision> {
    let reply: unknown;
    try {
      // EVAL rather than EVALSHA: Redis caches the compiled script either way, and there is no
      // NOSCRIPT to recover from after a Redis restart or SCRIPT FLUSH.
      reply = attempt.device === undefined
        ? await this.client.eval(RECORD_ATTEMPT, 2, ...this.keys(attempt), this.windowMs, this.limits.limit, this.limits.accountLimit)
        : await this.client.eval(RECORD_DEVICE_ATTEMPT, 1, this.deviceKey(attempt, attempt.device), this.windowMs, this.limits.limit);
    } catch (error) {
      throw new LoginThrottleUnavailable(error);
    }
    if (!Array.isArray(reply) || (reply[0] !== 0 && reply[0] !== 1) || !isCount(reply[1])) {
      throw new LoginThrottleUnavailable(new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`));
    }
    const [allowed, ttlMs] = reply as [0 | 1, number];
    if (allowed === 1) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    try {
      if (attempt.device === undefined) await this.client.eval(RECORD_SUCCESS, 2, ...this.keys(attempt));
      else await this.client.del(this.deviceKey(attempt, attempt.device));
    } catch (error) {
      throw new LoginThrottleUnavailable(error);
    }
  }

  private keys(attempt: LoginAttempt): [fromClient: string, overall: string] {
    const overall = this.overallKey(attempt);
    return [`${overall}:${throttleClient(attempt.clientAddress)}`, overall];
  }

  private deviceKey(attempt: LoginAttempt, device: string): string {
    return `${this.overallKey(attempt)}:device:${device}`;
  }

  private overallKey(attempt: LoginAttempt): string {
    return `${this.options.keyPrefix}login-failures:{${attempt.accountKey}}`;
  }
}
