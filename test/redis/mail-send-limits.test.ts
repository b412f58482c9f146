import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MailSendLimitsUnavailable } from '../../src/application/ports/mail-send-limits';
import { RedisMailSendLimits } from '../../src/adapters/rate-limit/redis-mail-send-limits';
import { loadConfig } from '../../src/bootstrap/config';
import { mailSendLimitsOf } from '../../src/bootstrap/mail-send-limits';
import { closeRedis } from '../../src/bootstrap/redis';
import { TestClock } from '../../src/testing/test-clock';
import { mailSendLimitsContract } from '../support/mail-send-limits-contract';
import { connectTestRedis, deleteKeysUnder, describeIfRedis, keysUnder, uniqueRedisPrefix } from '../support/redis';

const POLICY = { perRecipientPerHour: 5, perTenantPerHour: 200 };

describeIfRedis('RedisMailSendLimits', (url) => {
  let client: Redis;
  const prefixes: string[] = [];
  const newPrefix = (label: string) => {
    const prefix = uniqueRedisPrefix(label);
    prefixes.push(prefix);
    return prefix;
  };

  beforeAll(async () => {
    client = (await connectTestRedis(url)).client;
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysUnder(client, prefix);
    await closeRedis(client);
  });

  describe('the MailSendLimits contract', () => {
    mailSendLimitsContract(() => {
      const keyPrefix = newPrefix('mail-limits-contract');
      return { make: (policy, clock) => new RedisMailSendLimits(client, { keyPrefix, ...policy }, clock) };
    });
  });

  it('keeps no address in the clear: a hash of the normalised address, and counts that expire after their hour', async () => {
    const keyPrefix = newPrefix('mail-limits-keys');
    const clock = new TestClock(new Date('2030-01-01T10:15:00.000Z'));
    const limits = new RedisMailSendLimits(client, { keyPrefix, ...POLICY }, clock);
    await limits.take('Jane@Example.com', 'tenant-1');
    await limits.take('jane@example.com', 'tenant-1');

    const window = Math.floor(clock.now().getTime() / 3_600_000);
    const hash = createHash('sha256').update('jane@example.com').digest('hex');
    const recipientKey = `${keyPrefix}mail:{send-limits}:recipient:${hash}:${window}`;
    const tenantKey = `${keyPrefix}mail:{send-limits}:tenant:tenant-1:${window}`;
    const keys = await keysUnder(client, keyPrefix);
    expect(keys.sort()).toEqual([recipientKey, tenantKey].sort());
    expect(keys.join('\n')).not.toMatch(/jane/i);
    for (const key of keys) {
      expect(await client.get(key)).toBe('2');
      const ttl = await client.pttl(key); // 45 minutes left in the hour, and a minute's slack
      expect(ttl).toBeGreaterThan(45 * 60_000);
      expect(ttl).toBeLessThanOrEqual(46 * 60_000);
    }
  });

  it('is what the service counts with when it has Redis, under REDIS_KEY_PREFIX and at the configured limits', async () => {
    const keyPrefix = newPrefix('mail-limits-wired');
    const config = loadConfig({ REDIS_KEY_PREFIX: keyPrefix, MAIL_LIMIT_PER_RECIPIENT: '1' });
    const limits = mailSendLimitsOf(config, client, new TestClock());
    expect([await limits.take('jane@example.com', 'tenant-1'), await limits.take('jane@example.com', 'tenant-1')]).toEqual([true, false]);
    expect(await keysUnder(client, keyPrefix)).toHaveLength(2);
  });

  it('throws when Redis cannot be reached, so the message is kept and tried again rather than dropped', async () => {
    const { client: lost } = await connectTestRedis(url);
    await closeRedis(lost);
    const limits = new RedisMailSendLimits(lost, { keyPrefix: newPrefix('mail-limits-down'), ...POLICY }, new TestClock());
    await expect(limits.take('jane@example.com', 'tenant-1')).rejects.toBeInstanceOf(MailSendLimitsUnavailable);
  });
});
