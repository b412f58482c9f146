import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { CurrentPasswordIncorrect, InvalidResetToken, InvalidVerificationToken, TooManyFailedLogins } from '../../src/domain/errors';
import { linkToken } from '../support/mail-links';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';

async function member(loginFailures = { limit: 10, accountLimit: 100, windowSeconds: 900 }) {
  const built = await buildTestUseCases({ loginFailures });
  const email = uniqueEmail('address');
  const { token } = await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Addresses' });
  const principal = await built.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${token}` });
  const mailbox = built.assembly.mailer as DevelopmentMailbox;
  /** The token of the newest link to `page` sent to `to`. */
  const link = async (to: string, page: string): Promise<string> => {
    await built.assembly.mailWorker!.deliverNow();
    return linkToken(mailbox.latestTo(to)!.text, page);
  };
  /** Moves the member to another address straight in storage: no link is voided, so only the address rule can refuse them. */
  const moveInStorage = async (to: string): Promise<void> => {
    const moved = await built.storage.unitOfWork.run((tx) =>
      tx.users.changeEmail(principal.tenantId, principal.userId, { from: email, to }, built.services.clock.now()));
    expect(moved?.email).toBe(to);
  };
  return { ...built, email, principal, link, moveInStorage };
}

describe('links sent to an address the member has left (V6.4.1)', () => {
  it('VerifyEmail refuses a verification link sent to the old address', async () => {
    const { useCases, email, link, moveInStorage } = await member();
    const verification = await link(email, 'verify-email');
    await moveInStorage(uniqueEmail('elsewhere'));
    await expect(useCases.verifyEmail.execute(verification)).rejects.toBeInstanceOf(InvalidVerificationToken);
  });

  it('ResetPassword refuses a reset link sent to the old address', async () => {
    const { useCases, email, link, moveInStorage } = await member();
    await useCases.forgotPassword.execute(email);
    await useCases.forgotPassword.settled();
    const reset = await link(email, 'reset-password');
    await moveInStorage(uniqueEmail('elsewhere'));
    await expect(useCases.resetPassword.execute({ token: reset, password: 'the attacker chose this' })).rejects.toBeInstanceOf(InvalidResetToken);
  });
});

describe('RequestEmailChange', () => {
  it('counts wrong current passwords in the account\'s login throttle, so a stolen token guesses no faster (V6.3.1)', async () => {
    const { useCases, principal } = await member({ limit: 3, accountLimit: 100, windowSeconds: 900 });
    const to = uniqueEmail('guess');
    for (let i = 0; i < 3; i += 1) {
      await expect(useCases.requestEmailChange.execute(principal, { newEmail: to, currentPassword: `guess ${i}` }))
        .rejects.toBeInstanceOf(CurrentPasswordIncorrect);
    }
    await expect(useCases.requestEmailChange.execute(principal, { newEmail: to, currentPassword: PASSWORD }))
      .rejects.toBeInstanceOf(TooManyFailedLogins);
  });
});
