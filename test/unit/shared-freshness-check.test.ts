import { SharedFreshnessCheck } from '../../src/adapters/cache/shared-freshness-check';
import type { ChangePositions } from '../../src/application/ports/change-positions';
import { AuthenticationUnavailable } from '../../src/domain/errors';

/** A head whose every read waits until the test answers it, so what runs when is the test's to say. */
class ControlledHead {
  readonly pending: Array<{ resolve: (head: number) => void; reject: (error: unknown) => void }> = [];

  read = (): Promise<number> => new Promise((resolve, reject) => {
    this.pending.push({ resolve, reject });
  });

  get reads(): number {
    return this.pending.length;
  }

  answer(index: number, head: number): void {
    this.pending[index]!.resolve(head);
  }
}

/** An instance's position, caught up on demand as the follower would (reading the log). */
class Positions implements ChangePositions {
  current = 0;
  reached: number[] = [];

  async reach(position: number): Promise<number> {
    this.reached.push(position);
    this.current = Math.max(this.current, position);
    return this.current;
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function setUp(timeoutMs = 60_000) {
  const head = new ControlledHead();
  const positions = new Positions();
  const errors: unknown[] = [];
  const check = new SharedFreshnessCheck(head.read, positions, (error) => errors.push(error), { timeoutMs });
  return { head, positions, errors, check };
}

/** Whether a promise has settled by now (after the microtasks already queued). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => { done = true; }, () => { done = true; });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

// ASVS 5.0 V7.4.1 (a terminated credential is refused at once): what makes "at once" hold across
// instances is that no request is answered before a check that began after it arrived.
describe('the shared freshness check', () => {
  it('requests that ask in the same turn share one check, which starts at the end of that turn', async () => {
    const { head, check } = setUp();
    const asked = Array.from({ length: 50 }, () => check.confirm());
    expect(head.reads).toBe(0); // not before the turn ends: a request later in this turn may still join
    await nextTurn();
    expect(head.reads).toBe(1);
    head.answer(0, 0);
    await expect(Promise.all(asked)).resolves.toEqual(Array(50).fill(0));
    expect(head.reads).toBe(1);
  });

  it('a request that asks while a check is running waits for the next one, which starts at the end of the turn the first ends in', async () => {
    const { head, check } = setUp();
    const early = check.confirm();
    await nextTurn();
    expect(head.reads).toBe(1);
    const late = [check.confirm(), check.confirm()];
    await nextTurn();
    expect(head.reads).toBe(1); // one check in flight at most; the late ones are queued

    head.answer(0, 0);
    await expect(early).resolves.toBe(0);
    expect(await settled(late[0]!)).toBe(false); // the running check may have read the head before they arrived
    // Asked in the turn the first check ended in, after its answer: it joins the queued check
    // rather than waiting for one of its own.
    const sameTurn = check.confirm();
    expect(head.reads).toBe(1);
    await nextTurn();
    expect(head.reads).toBe(2);
    head.answer(1, 0);
    await expect(Promise.all([...late, sameTurn])).resolves.toEqual([0, 0, 0]);
    expect(head.reads).toBe(2);
  });

  it('many turns of requests during one check make one queued check, not one each', async () => {
    const { head, check } = setUp();
    void check.confirm();
    await nextTurn();
    const waiting: Promise<number>[] = [];
    for (let turn = 0; turn < 5; turn += 1) {
      waiting.push(check.confirm(), check.confirm());
      await nextTurn();
    }
    head.answer(0, 0);
    await nextTurn();
    await nextTurn();
    expect(head.reads).toBe(2);
    head.answer(1, 0);
    await expect(Promise.all(waiting)).resolves.toHaveLength(10);
    expect(head.reads).toBe(2);
  });

  it('a head past the instance\'s position is reached before anyone is answered; one at or behind it is not read again', async () => {
    const { head, positions, check } = setUp();
    const behind = check.confirm();
    await nextTurn();
    head.answer(0, 7);
    await expect(behind).resolves.toBe(7);
    expect(positions.reached).toEqual([7]);

    const level = check.confirm();
    await nextTurn();
    head.answer(1, 7);
    await expect(level).resolves.toBe(7);
    expect(positions.reached).toEqual([7]);
  });

  it('a failed read refuses the round with AuthenticationUnavailable, is logged once per outage, and the next round asks again', async () => {
    const { head, errors, check } = setUp();
    const failure = new Error('connection refused');
    for (let round = 0; round < 2; round += 1) {
      const asked = check.confirm();
      await nextTurn();
      head.pending[round]!.reject(failure);
      await expect(asked).rejects.toBeInstanceOf(AuthenticationUnavailable);
      await expect(asked).rejects.toMatchObject({ message: 'Authentication unavailable', cause: failure });
    }
    expect(errors).toEqual([failure]);
    const recovered = check.confirm();
    await nextTurn();
    head.answer(2, 0);
    await expect(recovered).resolves.toBe(0);
  });

  it('a check that does not answer in time refuses its requests, and those queued behind it, without asking the database again meanwhile', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { head, check } = setUp(100);
      const hung = check.confirm();
      await nextTurn();
      jest.advanceTimersByTime(50);
      const queued = check.confirm();
      jest.advanceTimersByTime(50);
      await expect(hung).rejects.toBeInstanceOf(AuthenticationUnavailable);
      jest.advanceTimersByTime(50);
      await expect(queued).rejects.toBeInstanceOf(AuthenticationUnavailable);
      expect(head.reads).toBe(1); // the hung check keeps its place: no pile-up of statements on a database that hangs

      // When the hung read ends at last, a request asking then gets a check of its own.
      const after = check.confirm();
      head.answer(0, 0);
      await nextTurn();
      await nextTurn();
      expect(head.reads).toBe(2);
      head.answer(1, 0);
      await expect(after).resolves.toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
