import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { CurrentPasswordIncorrect, InvalidResetToken, InvalidVerificationToken, TooManyFailedLogins } from '../../src/domain/errors';
import { linkToken } from '../support/mail-links';
import { buildTestUseCases, FAST_SCRYPT, uniqueEmail } from '../support/test-use-cases';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';

const PASSWORD = 'correct horse battery';

/** Real scrypt whose next verification, once armed, waits until the test lets it finish. */
class GatedHasher implements PasswordHasher {
  private readonly inner = new ScryptPasswordHasher(FAST_SCRYPT);
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  private arrive: (() => void) | undefined;
  /** `reached` resolves once the armed verification is waiting; `release` lets it finish. */
  arm(): { reached: Promise<void>; release: () => void } {
    this.gate = new Promise((resolve) => { this.open = resolve; });
    const reached = new Promise<void>((resolve) => { this.arrive = resolve; });
    return { reached, release: () => this.open!() };
  }
  hash(password: string): Promise<string> { return this.inner.hash(password); }
  async verify(password: string, storedHash: string): Promise<boolean> {
    const verified = await this.inner.verify(password, storedHash);
    const gate = this.gate;
    this.gate = undefined;
    if (gate) {
      this.arrive!();
      await gate;
    }
    return verified;
  }
  needsRehash(storedHash: string): boolean { return this.inner.needsRehash(storedHash); }
}

async function member(loginFailures = { limit: 10, accountLimit: 100, windowSeconds: 900 }, hasher: PasswordHasher | undefined = undefined) {
  const built = await buildTestUseCases({ loginFailures, hasher });
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

  it('makes no link when a password reset or change committed while the current password was being checked', async () => {
    const hasher = new GatedHasher();
    const { useCases, principal, storage, services } = await member(undefined, hasher);
    const { reached, release } = hasher.arm();
    const asked = useCases.requestEmailChange.execute(principal, { newEmail: uniqueEmail('hijack'), currentPassword: PASSWORD });
    // The owner changes the password while the request's scrypt runs.
    await reached;
    const user = (await storage.repos.users.findById(principal.tenantId, principal.userId))!;
    const changed = await storage.unitOfWork.run((tx) => tx.users.changePassword(principal.tenantId, principal.userId, { from: user.passwordHash, to: 'scrypt$new' }));
    expect(changed).not.toBeNull();
    release();
    await expect(asked).rejects.toBeInstanceOf(CurrentPasswordIncorrect);
    const due = await storage.repos.outbox.claimDue(new Date(services.clock.now().getTime() + 60_000), new Date(services.clock.now().getTime() + 120_000), 100);
    expect(due.filter((mail) => mail.kind === 'email-change-confirm')).toEqual([]);
  });
});
