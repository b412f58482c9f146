import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { normalizeEmail } from '../../domain/email';
import type { Clock } from '../../application/ports/clock';
import { MailSendLimitsUnavailable, type MailSendLimits, type MailSendPolicy } from '../../application/ports/mail-send-limits';
import { mailSendWindow } from './mail-send-windows';

/**
 * One round trip, atomic because Redis runs a script without interleaving: every count (the
 * recipient's, KEYS[1], and the tenant's, KEYS[2], when there is one) must be below its limit
 * (ARGV[1], ARGV[2]) before any is counted, so a refused message uses up neither. Each count gets
 * an expiry (ARGV[3]) when it has none; the window is in the key's name, so the expiry only clears
 * memory and never decides a window.
 * Answers 1 when counted, 0 when refused.
 */
const TAKE = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[3]) end
end
return 1`;

/** A count outlives its window by this much, so clocks a little apart still find it. */
const EXPIRY_SLACK_MS = 60_000;

export interface RedisMailSendLimitsOptions extends MailSendPolicy {
  /**
   * Prepended to every key, e.g. `portcullis:`. The limits add `mail:{send-limits}:` and then
   * `recipient:<SHA-256 of the normalised address>:<window>` or `tenant:<tenant id>:<window>`. The
   * braces put every count in one Redis Cluster slot, as the one script that checks two of them
   * needs; mail is few enough messages for one slot.
   */
  readonly keyPrefix: string;
}

/**
 * The mail send limits in Redis, shared by every instance using the same Redis and prefix. Windows
 * are numbered from the Clock, so tests move a test clock instead of waiting. Every Redis failure,
 * and any reply that is not the script's 0 or 1, becomes MailSendLimitsUnavailable.
 */
export class RedisMailSendLimits implements MailSendLimits {
  constructor(
    private readonly client: Redis,
    private readonly options: RedisMailSendLimitsOptions,
    private readonly clock: Clock,
  ) {}

  async take(recipient: string, tenantId: string | null): Promise<boolean> {
    const now = this.clock.now().getTime();
    const window = mailSendWindow(now);
    const base = `${this.options.keyPrefix}mail:{send-limits}:`;
    const addressHash = createHash('sha256').update(normalizeEmail(recipient)).digest('hex');
    const keys = [`${base}recipient:${addressHash}:${window.index}`];
    const limits = [String(this.options.perRecipientPerHour)];
    if (tenantId !== null) {
      keys.push(`${base}tenant:${tenantId}:${window.index}`);
      limits.push(String(this.options.perTenantPerHour));
    } else {
      limits.push('0'); // no tenant key: ARGV[2] is never read, but ARGV[3] must stay the expiry
    }
    const expiryMs = String(window.endsAt - now + EXPIRY_SLACK_MS);
    let reply: unknown;
    try {
      reply = await this.client.eval(TAKE, keys.length, ...keys, ...limits, expiryMs);
    } catch (error) {
      throw new MailSendLimitsUnavailable(error);
    }
    if (reply !== 0 && reply !== 1) throw new MailSendLimitsUnavailable(new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`));
    return reply === 1;
  }
}
