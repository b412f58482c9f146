import { MemoryMailSendLimits } from '../../src/adapters/rate-limit/memory-mail-send-limits';
import { mailSendLimitsContract } from '../support/mail-send-limits-contract';

describe('MemoryMailSendLimits', () => {
  describe('the MailSendLimits contract', () => {
    mailSendLimitsContract(() => ({ make: (policy, clock) => new MemoryMailSendLimits(policy, clock) }));
  });
});
