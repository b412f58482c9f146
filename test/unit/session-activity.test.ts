import { randomUUID } from 'node:crypto';
import { BatchedSessionActivity } from '../../src/adapters/cache/batched-session-activity';
import type { SessionUse } from '../../src/application/ports/repositories';
import { TestClock } from '../../src/testing/test-clock';

const TENANT = randomUUID();

function setUp() {
  const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
  const writes: SessionUse[][] = [];
  const sessions = { markSeen: async (uses: readonly SessionUse[]) => { writes.push([...uses]); } };
  const activity = new BatchedSessionActivity(sessions, clock, (error) => { throw error; }, { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 200_000 });
  return { clock, writes, activity };
}

// What the idle timeout (ASVS 5.0 V7.3.1) reads besides storage: a use this instance served must be
// known here from the request that made it until storage holds it, or a session in use could idle out.
describe('sessions\' latest use on this instance', () => {
  it('is known from the use itself, while its batch waits, while it is written, and after', async () => {
    const { clock, writes, activity } = setUp();
    const session = randomUUID();
    expect(activity.lastUse(session)).toBeUndefined();

    const first = clock.now();
    activity.recordUse(TENANT, session, first);
    expect(activity.lastUse(session)).toEqual(first);

    clock.advance({ seconds: 60 });
    const second = clock.now();
    activity.recordUse(TENANT, session, second); // the interval is over: this use's batch leaves for the write
    expect(activity.lastUse(session)).toEqual(second);
    await activity.settled();
    expect(writes).toEqual([[{ tenantId: TENANT, sessionId: session, at: second }]]);
    expect(activity.lastUse(session)).toEqual(second);
  });

  it('answers the latest of the use being gathered and the one already written', async () => {
    const { clock, activity } = setUp();
    const session = randomUUID();
    activity.recordUse(TENANT, session, clock.now());
    await activity.flush();
    clock.advance({ seconds: 5 });
    const later = clock.now();
    activity.recordUse(TENANT, session, later);
    expect(activity.lastUse(session)).toEqual(later);
    // A use stamped earlier than one already known (another request's clock reading) does not move it back.
    activity.recordUse(TENANT, session, new Date(later.getTime() - 1_000));
    expect(activity.lastUse(session)).toEqual(later);
  });
});
