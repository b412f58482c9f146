import { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { assembleForTest, testConfig } from '../support/test-use-cases';

describe('the assembled mailer', () => {
  it('is the one a caller gives', async () => {
    const mailbox = new DevelopmentMailbox({ from: 'kit@localhost' });
    const assembly = await assembleForTest({}, testConfig(), { mailer: mailbox });
    try {
      expect(assembly.mailer).toBe(mailbox);
    } finally {
      await assembly.close();
    }
  });

  it('is the configuration\'s choice when none is given: the development mailbox outside production', async () => {
    const assembly = await assembleForTest();
    try {
      expect(assembly.mailer).toBeInstanceOf(DevelopmentMailbox);
    } finally {
      await assembly.close();
    }
  });
});
