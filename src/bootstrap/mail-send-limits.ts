import type { Redis } from 'ioredis';
import type { Clock } from '../application/ports/clock';
import type { MailSendLimits } from '../application/ports/mail-send-limits';
import { MemoryMailSendLimits } from '../adapters/rate-limit/memory-mail-send-limits';
import { RedisMailSendLimits } from '../adapters/rate-limit/redis-mail-send-limits';
import type { Config } from './config';

/**
 * Messages per hour per recipient and per tenant (MAIL_LIMIT_*): in Redis when instances share one
 * (REDIS_URL), so every delivery worker counts against the same limits; else in this process.
 */
export function mailSendLimitsOf(config: Config, redis: Redis | undefined, clock: Clock): MailSendLimits {
  return redis
    ? new RedisMailSendLimits(redis, { keyPrefix: config.redisKeyPrefix, ...config.mail.sendLimits }, clock)
    : new MemoryMailSendLimits(config.mail.sendLimits, clock);
}
