import { CurrentPasswordIncorrect, InvalidCredentials, InvalidToken, TooManyFailedLogins } from '../../src/domain/errors';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

async function account(loginFailures = { limit: 10, accountLimit: 100, windowSeconds: 900 }) {
  const built = await buildTestUseCases({ loginFailures });
  const email = uniqueEmail();
  const { token } = await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Pw' });
  const bearer = (t: string) => built.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${t}` });
  return { ...built, email, token, principal: await bearer(token), bearer };
}

describe('ChangePassword', () => {
  it('replaces the password, ends earlier tokens and hands back one that works', async () => {
    const { useCases, email, token, principal, bearer } = await account();
    const result = await useCases.changePassword.execute(principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });

    expect(result.expiresIn).toBe('24h');
    await expect(bearer(token)).rejects.toBeInstanceOf(InvalidToken);
    await expect(bearer(result.token)).resolves.toMatchObject({ userId: principal.userId, role: 'owner' });
    await expect(useCases.login.execute({ email, password: PASSWORD })).rejects.toBeInstanceOf(InvalidCredentials);
    const login = await useCases.login.execute({ email, password: NEW_PASSWORD });
    await expect(bearer(login.token)).resolves.toMatchObject({ userId: principal.userId });
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const { useCases, email, token, principal, bearer } = await account();
    await expect(useCases.changePassword.execute(principal, { currentPassword: 'not my password', newPassword: NEW_PASSWORD }))
      .rejects.toBeInstanceOf(CurrentPasswordIncorrect);
    await expect(bearer(token)).resolves.toMatchObject({ userId: principal.userId });
    await expect(useCases.login.execute({ email, password: PASSWORD })).resolves.toHaveProperty('token');
  });

  it('counts wrong current passwords in the account\'s login throttle, so a stolen token guesses no faster', async () => {
    const { useCases, principal } = await account({ limit: 3, accountLimit: 100, windowSeconds: 900 });
    for (let i = 0; i < 3; i += 1) {
      await expect(useCases.changePassword.execute(principal, { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD }))
        .rejects.toBeInstanceOf(CurrentPasswordIncorrect);
    }
    await expect(useCases.changePassword.execute(principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }))
      .rejects.toBeInstanceOf(TooManyFailedLogins);
  });
});
