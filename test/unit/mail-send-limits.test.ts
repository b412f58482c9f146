import { MemoryMailSendLimits } from '../../src/adapters/rate-limit/memory-mail-send-limits';
import { loadConfig } from '../../src/bootstrap/config';
import { mailSendLimitsOf } from '../../src/bootstrap/mail-send-limits';
import { TestClock } from '../../src/testing/test-clock';
import { mailSendLimitsContract } from '../support/mail-send-limits-contract';

describe('MemoryMailSendLimits', () => {
  describe('the MailSendLimits contract', () => {
    mailSendLimitsContract(() => ({ make: (policy, clock) => new MemoryMailSendLimits(policy, clock) }));
  });

  it('is what the service counts with when there is no Redis, at the configured limits', async () => {
    const config = loadConfig({ MAIL_LIMIT_PER_RECIPIENT: '2', MAIL_LIMIT_PER_TENANT: '3' });
    const limits = mailSendLimitsOf(config, undefined, new TestClock());
    expect([await limits.take('a@example.com', 't'), await limits.take('a@example.com', 't'), await limits.take('a@example.com', 't')])
      .toEqual([true, true, false]);
    expect(await limits.take('b@example.com', 't')).toBe(true);
    expect(await limits.take('c@example.com', 't')).toBe(false);
  });
});
