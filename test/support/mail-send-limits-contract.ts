import { randomUUID } from 'node:crypto';
import type { MailSendLimits, MailSendPolicy } from '../../src/application/ports/mail-send-limits';
import { TestClock } from '../../src/testing/test-clock';

export interface MailSendLimitsBackend {
  /** Limits with that policy over counts no other test sees, reading the time from `clock`. */
  make(policy: MailSendPolicy, clock: TestClock): MailSendLimits;
}

/** On the hour, so a case knows where the window ends. */
const ON_THE_HOUR = new Date('2030-01-01T10:00:00.000Z');
const POLICY: MailSendPolicy = { perRecipientPerHour: 3, perTenantPerHour: 5 };

const address = (name = 'person') => `${name}-${randomUUID()}@example.com`;

async function takes(limits: MailSendLimits, recipient: string, tenantId: string | null, times: number): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (let i = 0; i < times; i += 1) answers.push(await limits.take(recipient, tenantId));
  return answers;
}

/** The MailSendLimits port's contract, run over every adapter (memory, Redis). */
export function mailSendLimitsContract(backend: () => MailSendLimitsBackend): void {
  function setup(policy: MailSendPolicy = POLICY) {
    const clock = new TestClock(ON_THE_HOUR);
    return { clock, limits: backend().make(policy, clock) };
  }

  it('lets the per-recipient number of messages go to one address in an hour, then holds the rest back', async () => {
    const { limits } = setup();
    expect(await takes(limits, address(), randomUUID(), 5)).toEqual([true, true, true, false, false]);
  });

  it('counts an address however it is written', async () => {
    const { limits } = setup();
    const local = `Jane-${randomUUID()}`;
    const tenant = randomUUID();
    expect(await limits.take(`${local}@Example.COM`, tenant)).toBe(true);
    expect(await limits.take(` ${local.toLowerCase()}@example.com`, tenant)).toBe(true);
    expect(await limits.take(`${local.toUpperCase()}@EXAMPLE.COM`, tenant)).toBe(true);
    expect(await limits.take(`${local.toLowerCase()}@example.com`, tenant)).toBe(false);
  });

  it('counts each address on its own', async () => {
    const { limits } = setup({ perRecipientPerHour: 3, perTenantPerHour: 100 });
    const tenant = randomUUID();
    const [first, second] = [address(), address()];
    await takes(limits, first, tenant, 3);
    expect(await takes(limits, second, tenant, 3)).toEqual([true, true, true]);
    expect(await limits.take(first, tenant)).toBe(false);
  });

  it("counts one address's messages from every tenant together, so no tenant can add to another's flood", async () => {
    const { limits } = setup();
    const recipient = address();
    const answers: boolean[] = [];
    for (let i = 0; i < 4; i += 1) answers.push(await limits.take(recipient, randomUUID()));
    expect(answers).toEqual([true, true, true, false]);
  });

  it("lets the per-tenant number of messages go for one tenant in an hour, whoever they go to, and leaves other tenants' alone", async () => {
    const { limits } = setup();
    const [tenant, other] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 5; i += 1) expect(await limits.take(address(), tenant)).toBe(true);
    expect(await limits.take(address(), tenant)).toBe(false);
    expect(await limits.take(address(), other)).toBe(true);
  });

  it('counts nothing for a message it holds back', async () => {
    const { limits } = setup({ perRecipientPerHour: 2, perTenantPerHour: 2 });
    const [full, tenant] = [randomUUID(), randomUUID()];
    await limits.take(address(), full);
    await limits.take(address(), full);
    // Held back by the tenant's count: the recipient's stays unused.
    const recipient = address();
    expect(await takes(limits, recipient, full, 3)).toEqual([false, false, false]);
    expect(await takes(limits, recipient, tenant, 2)).toEqual([true, true]);
    // Held back by the recipient's count: the tenant's stays unused.
    const other = randomUUID();
    expect(await takes(limits, recipient, other, 3)).toEqual([false, false, false]);
    expect(await takes(limits, address(), other, 2)).toEqual([true, true]);
  });

  it('counts a message about no tenant for its recipient only', async () => {
    const { limits } = setup({ perRecipientPerHour: 2, perTenantPerHour: 1 });
    const recipient = address();
    expect(await takes(limits, recipient, null, 3)).toEqual([true, true, false]);
    expect(await limits.take(recipient, randomUUID())).toBe(false);
    expect(await takes(limits, address(), null, 2)).toEqual([true, true]);
  });

  it('starts every count again at the next hour, not an hour after the first message', async () => {
    const { clock, limits } = setup();
    const [recipient, tenant] = [address(), randomUUID()];
    clock.advance({ minutes: 30 });
    await takes(limits, recipient, tenant, 3);
    clock.advance({ minutes: 29, seconds: 59 });
    expect(await limits.take(recipient, tenant)).toBe(false);
    clock.advance({ seconds: 1 }); // 11:00
    expect(await takes(limits, recipient, tenant, 4)).toEqual([true, true, true, false]);
  });

  it('lets exactly the limit of a parallel burst through', async () => {
    const { limits } = setup({ perRecipientPerHour: 5, perTenantPerHour: 200 });
    const recipient = address();
    const tenant = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => limits.take(recipient, tenant)));
    expect(answers.filter(Boolean)).toHaveLength(5);
    const tenantBurst = await Promise.all(Array.from({ length: 250 }, () => limits.take(address(), tenant)));
    expect(tenantBurst.filter(Boolean)).toHaveLength(195);
  });
}
