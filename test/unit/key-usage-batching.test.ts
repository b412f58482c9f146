import { randomUUID } from 'node:crypto';
import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import type { ApiKeyUse } from '../../src/application/ports/repositories';
import { TestClock } from '../../src/testing/test-clock';

const TENANT = randomUUID();
const MINUTE_S = 60;

/** A key store that records each write it is asked for (one markUsed call is one statement on SQL storage). */
function recordingKeys() {
  const writes: ApiKeyUse[][] = [];
  return { writes, apiKeys: { markUsed: async (uses: readonly ApiKeyUse[]) => { writes.push([...uses]); } } };
}

function setUp(options = { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 200_000 }) {
  const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
  const { writes, apiKeys } = recordingKeys();
  const errors: unknown[] = [];
  const usage = new BatchedApiKeyUsage(apiKeys, clock, (error) => errors.push(error), options);
  return { clock, writes, usage, errors };
}

describe('API key usage, batched', () => {
  it('gives one write for a thousand uses of a thousand keys in an interval, with each key\'s latest use', async () => {
    const { clock, writes, usage } = setUp();
    const keys = Array.from({ length: 1000 }, () => randomUUID());
    for (const key of keys) usage.recordUse(TENANT, key, clock.now());
    clock.advance({ seconds: MINUTE_S - 1 });
    const latest = clock.now();
    for (const key of keys) usage.recordUse(TENANT, key, latest);
    await usage.settled();
    expect(writes).toHaveLength(0);

    clock.advance({ seconds: 1 });
    usage.recordUse(TENANT, keys[0]!, clock.now());
    await usage.settled();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(1000);
    expect(writes[0]!.filter((use) => use.keyId !== keys[0]).every((use) => use.at.getTime() === latest.getTime() && use.tenantId === TENANT)).toBe(true);
    expect(writes[0]!.find((use) => use.keyId === keys[0])?.at).toEqual(clock.now());

    // The next interval starts with the next use: a thousand more uses, still one write per interval.
    for (let i = 0; i < 1000; i++) usage.recordUse(TENANT, keys[i % 10]!, clock.now());
    clock.advance({ seconds: MINUTE_S / 2 });
    usage.recordUse(TENANT, keys[0]!, clock.now());
    await usage.settled();
    expect(writes).toHaveLength(1);
    clock.advance({ seconds: MINUTE_S / 2 });
    usage.recordUse(TENANT, keys[0]!, clock.now());
    await usage.settled();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toHaveLength(10);
  });

  it('writes what it gathered when closed (at shutdown), and nothing more after', async () => {
    const { clock, writes, usage } = setUp();
    usage.recordUse(TENANT, randomUUID(), clock.now());
    usage.recordUse(TENANT, randomUUID(), clock.now());
    await usage.close();
    expect(writes.map((batch) => batch.length)).toEqual([2]);
    await usage.close();
    expect(writes).toHaveLength(1);
  });

  it('writes a full batch early, so that memory stays bounded however many keys are used', async () => {
    const { clock, writes, usage } = setUp({ intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 100 });
    for (let i = 0; i < 250; i++) {
      usage.recordUse(TENANT, randomUUID(), clock.now());
      await usage.settled();
    }
    expect(writes.map((batch) => batch.length)).toEqual([100, 100]);
    expect(usage.pendingKeys).toBe(50);
  });

  it('writes more keys than one statement holds in statements of that size, one after the other', async () => {
    const clock = new TestClock();
    const writes: ApiKeyUse[][] = [];
    let inFlight = 0;
    let most = 0;
    const apiKeys = { markUsed: async (uses: readonly ApiKeyUse[]) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      writes.push([...uses]);
      inFlight -= 1;
    } };
    const chunked = new BatchedApiKeyUsage(apiKeys, clock, (error) => { throw error; }, { intervalMs: 60_000, keysPerStatement: 400, maxPending: 200_000 });
    for (let i = 0; i < 1000; i++) chunked.recordUse(TENANT, randomUUID(), clock.now());
    await chunked.close();
    expect(writes.map((batch) => batch.length)).toEqual([400, 400, 200]);
    expect(most).toBe(1);
  });

  it('writes a due batch when no request comes, from its periodic check', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { clock, writes, usage } = setUp();
      usage.recordUse(TENANT, randomUUID(), clock.now());
      clock.advance({ seconds: MINUTE_S });
      jest.advanceTimersByTime(10_000); // the check runs; by the clock, the interval is over
      await usage.settled();
      expect(writes).toHaveLength(1);
      await usage.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a failed write and keeps gathering', async () => {
    const clock = new TestClock();
    const errors: unknown[] = [];
    let calls = 0;
    const usage = new BatchedApiKeyUsage({ markUsed: async () => { calls += 1; throw new Error('database down'); } }, clock, (error) => errors.push(error));
    usage.recordUse(TENANT, randomUUID(), clock.now());
    await usage.flush();
    expect(errors).toEqual([new Error('database down')]);
    usage.recordUse(TENANT, randomUUID(), clock.now());
    await usage.close();
    expect(calls).toBe(2);
  });
});
