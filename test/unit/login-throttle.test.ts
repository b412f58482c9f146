import { createHash } from 'node:crypto';
import { LoginThrottleUnavailable, type LoginThrottle, type ThrottleDecision } from '../../src/application/ports/login-throttle';
import { MemoryLoginThrottle } from '../../src/adapters/rate-limit/memory-login-throttle';
import { InvalidCredentials, TooManyFailedLogins } from '../../src/domain/errors';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';
const WRONG = 'wrong password!';
const POLICY = { limit: 3, accountLimit: 5, windowSeconds: 900 };

async function setup(options: { loginThrottle?: LoginThrottle } = {}) {
  const clock = new TestClock();
  const built = await buildTestUseCases({ clock, loginFailures: POLICY, ...options });
  const email = uniqueEmail();
  await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Acme' });
  const login = (password: string, address = email, clientAddress?: string) =>
    built.useCases.login.execute({ email: address, password }, { clientAddress });
  return { ...built, clock, email, login };
}

async function failTimes(login: (password: string) => Promise<unknown>, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) await expect(login(WRONG)).rejects.toBeInstanceOf(InvalidCredentials);
}

describe('Login, throttled per account', () => {
  it('refuses the account after `limit` failures, even with the right password', async () => {
    const { login } = await setup();
    await failTimes(login, 3);
    const refusal = login(PASSWORD);
    await expect(refusal).rejects.toBeInstanceOf(TooManyFailedLogins);
    await expect(refusal).rejects.toMatchObject({ retryAfterSeconds: 900, message: 'Too many requests, retry after 900 seconds' });
    await expect(login(WRONG)).rejects.toBeInstanceOf(TooManyFailedLogins);
  });

  it('counts every spelling of the address as one account', async () => {
    const { login, email } = await setup();
    await expect(login(WRONG, email.toUpperCase())).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(login(WRONG, `  ${email}  `)).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(login(WRONG, email)).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(login(PASSWORD, email)).rejects.toBeInstanceOf(TooManyFailedLogins);
  });

  it('wipes the count on a success before the limit', async () => {
    const { login } = await setup();
    await failTimes(login, 2);
    await expect(login(PASSWORD)).resolves.toMatchObject({ expiresIn: '24h' });
    await failTimes(login, 2); // would have been the 3rd and 4th failure
    await expect(login(PASSWORD)).resolves.toMatchObject({ expiresIn: '24h' });
  });

  it('counts unknown e-mails the same way, so the throttle does not tell which accounts exist', async () => {
    const { useCases } = await setup();
    const nobody = uniqueEmail('nobody');
    const attempt = () => useCases.login.execute({ email: nobody, password: WRONG });
    for (let i = 0; i < 3; i += 1) await expect(attempt()).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(attempt()).rejects.toMatchObject({ retryAfterSeconds: 900 });
    await expect(attempt()).rejects.toBeInstanceOf(TooManyFailedLogins);
  });

  it('does not let one account\'s failures throttle another', async () => {
    const { login, useCases } = await setup();
    await failTimes(login, 3);
    await expect(login(PASSWORD)).rejects.toBeInstanceOf(TooManyFailedLogins);
    const other = uniqueEmail();
    await useCases.signup.execute({ email: other, password: PASSWORD, tenantName: 'Other' });
    await expect(useCases.login.execute({ email: other, password: PASSWORD })).resolves.toMatchObject({ expiresIn: '24h' });
  });

  it('lets the account in again once the window has ended, with an answer like any other', async () => {
    const { login, clock } = await setup();
    await failTimes(login, 3);
    clock.advance({ seconds: 600 });
    await expect(login(PASSWORD)).rejects.toMatchObject({ retryAfterSeconds: 300 });
    clock.advance({ seconds: 300 });
    const result = await login(PASSWORD);
    expect(Object.keys(result).sort()).toEqual(['deviceProof', 'expiresIn', 'token']); // nothing tells of the throttle
  });

  it('names accounts to the throttle by the SHA-256 of the normalised e-mail, never the address', async () => {
    const seen: string[] = [];
    const clock = new TestClock();
    const memory = new MemoryLoginThrottle(POLICY, clock);
    const recording: LoginThrottle = {
      recordAttempt: (attempt) => { seen.push(attempt.accountKey); return memory.recordAttempt(attempt); },
      recordSuccess: (attempt) => { seen.push(attempt.accountKey); return memory.recordSuccess(attempt); },
    };
    const { login, email } = await setup({ loginThrottle: recording });
    await login(WRONG, ` ${email.toUpperCase()}`).catch(() => undefined);
    await login(PASSWORD);
    const expected = createHash('sha256').update(email.toLowerCase()).digest('hex');
    expect(seen).toEqual([expected, expected, expected]);
  });

  it("counts per client address: an attacker's failures elsewhere leave the owner's own address free", async () => {
    const { login } = await setup();
    for (let i = 0; i < 3; i += 1) await expect(login(WRONG, undefined, '203.0.113.66')).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(login(PASSWORD, undefined, '203.0.113.66')).rejects.toBeInstanceOf(TooManyFailedLogins);
    await expect(login(PASSWORD, undefined, '192.0.2.10')).resolves.toMatchObject({ expiresIn: '24h' });
  });

  it('refuses every address once the failures over all of them reach the ceiling', async () => {
    const { login } = await setup();
    for (let i = 0; i < 5; i += 1) await expect(login(WRONG, undefined, `203.0.113.${i}`)).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(login(PASSWORD, undefined, '192.0.2.10')).rejects.toMatchObject({ retryAfterSeconds: 900 });
  });

  it("counts a known device's attempts as that device's, and refreshes its proof for the same device (V6.3.1)", async () => {
    const seen: (string | undefined)[] = [];
    const clock = new TestClock();
    const memory = new MemoryLoginThrottle(POLICY, clock);
    const recording: LoginThrottle = {
      recordAttempt: (attempt) => { seen.push(attempt.device); return memory.recordAttempt(attempt); },
      recordSuccess: (attempt) => memory.recordSuccess(attempt),
    };
    const { useCases, email } = await setup({ loginThrottle: recording });
    const first = await useCases.login.execute({ email, password: PASSWORD });
    const other = await useCases.signup.execute({ email: uniqueEmail('other'), password: PASSWORD, tenantName: 'Acme' });
    const again = await useCases.login.execute({ email, password: PASSWORD, deviceProof: first.deviceProof.value });
    expect(again.deviceProof.deviceId).toBe(first.deviceProof.deviceId);
    // Another account's proof, or nonsense, is no proof: counted as an attempt without a device.
    await expect(useCases.login.execute({ email, password: WRONG, deviceProof: other.deviceProof.value })).rejects.toBeInstanceOf(InvalidCredentials);
    await expect(useCases.login.execute({ email, password: WRONG, deviceProof: 'v1.x' })).rejects.toBeInstanceOf(InvalidCredentials);
    expect(seen).toEqual([undefined, first.deviceProof.deviceId, undefined, undefined]);
  });

  it('refuses the login when the throttle cannot be asked, whatever the password', async () => {
    const down: LoginThrottle = {
      recordAttempt: async (): Promise<ThrottleDecision> => { throw new LoginThrottleUnavailable(new Error('ECONNREFUSED')); },
      recordSuccess: async () => { throw new LoginThrottleUnavailable(new Error('ECONNREFUSED')); },
    };
    const { login } = await setup({ loginThrottle: down });
    await expect(login(PASSWORD)).rejects.toBeInstanceOf(LoginThrottleUnavailable);
    await expect(login(WRONG)).rejects.toBeInstanceOf(LoginThrottleUnavailable);
  });
});
