import { randomUUID } from 'node:crypto';
import { CachedCredentialStates } from '../../src/adapters/cache/cached-credential-states';
import { CredentialChangeFanOut } from '../../src/adapters/cache/credential-change-fan-out';
import { CredentialChangeFollower, DEFAULT_FOLLOWER } from '../../src/adapters/cache/credential-change-follower';
import { MemoryChangeLog, type UnloggedChange } from '../../src/adapters/persistence/memory/memory-change-log';
import type { CredentialChangeSubscriber } from '../../src/application/ports/credential-change-feed';
import type { ChangeLogPage, CredentialChangeLog, LoggedChange } from '../../src/application/ports/credential-change-log';
import type { UserAuthState } from '../../src/application/ports/repositories';

type Seen = readonly LoggedChange[] | 'interrupted';

function recorder() {
  const seen: Seen[] = [];
  const subscriber: CredentialChangeSubscriber = { changes: (batch) => seen.push(batch), interrupted: () => seen.push('interrupted') };
  return { seen, subscriber };
}

/** A log whose reads are counted, and whose head can be moved as a pruning or a restore would. */
class CountedLog implements CredentialChangeLog {
  reads = 0;
  override: ((page: ChangeLogPage) => ChangeLogPage) | undefined;

  constructor(readonly inner = new MemoryChangeLog()) {}

  async read(after: number, limit: number): Promise<ChangeLogPage> {
    this.reads += 1;
    const page = await this.inner.read(after, limit);
    return this.override ? this.override(page) : page;
  }

  async head(): Promise<number> {
    return (await this.read(Number.MAX_SAFE_INTEGER, 0)).head;
  }

  prune(): Promise<number> {
    return this.inner.prune();
  }
}

const tenant = randomUUID();
const user = (userId = randomUUID()): UnloggedChange => ({ kind: 'user', userId, tenantId: tenant });
const key = (keyId = randomUUID()): UnloggedChange => ({ kind: 'api-key', keyId, tenantId: tenant });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function follow(options = DEFAULT_FOLLOWER) {
  const log = new CountedLog();
  const states = new Map<string, UserAuthState>();
  let loads = 0;
  const cache = new CachedCredentialStates({
    users: { findAuthState: async (_t, userId) => { loads += 1; return states.get(userId) ?? null; } },
    apiKeys: { findActiveByHash: async () => null },
    sessions: { findLive: async () => null },
  });
  const fanOut = new CredentialChangeFanOut(false);
  const errors: unknown[] = [];
  const follower = new CredentialChangeFollower(log, cache, fanOut, (error) => errors.push(error), options);
  log.inner.watch(() => follower.wake(false));
  await follower.listening();
  return { log, cache, fanOut, follower, states, errors, loads: () => loads };
}

describe('following the credential change log', () => {
  it('starts at the head, then hands on each read in order of position, and subscribers learn where they joined', async () => {
    const { log, fanOut, follower } = await follow();
    log.inner.append([user(), user()]);
    await follower.caughtUp();
    expect(follower.current).toBe(2);

    const { seen, subscriber } = recorder();
    expect(fanOut.subscribe(subscriber)?.position).toBe(2);
    const first = user();
    const second = key();
    log.inner.append([first, second]);
    await follower.caughtUp();
    expect(seen).toEqual([[{ ...first, position: 3 }, { ...second, position: 4 }]]);
    expect(follower.current).toBe(4);
  });

  it('reads once for every wake-up of one turn of the event loop', async () => {
    const { log, follower } = await follow();
    const before = log.reads;
    for (let i = 0; i < 50; i += 1) log.inner.append([user()]);
    await nextTurn();
    await follower.caughtUp();
    // One read for the fifty appends of that turn, and the one caughtUp asked for.
    expect(log.reads - before).toBeLessThanOrEqual(2);
    expect(follower.current).toBe(50);
  });

  it('once closed, reads nothing more and reports nothing: a wake-up pending then, or a read failing as its storage closes', async () => {
    const { log, follower, errors } = await follow();
    log.inner.append([user()]); // wakes the follower for the next turn
    follower.close();
    const before = log.reads;
    await nextTurn();
    expect(log.reads).toBe(before);

    const reading = await follow();
    reading.log.override = () => { throw new Error('driver has already been destroyed'); };
    const read = reading.follower.caughtUp();
    reading.follower.close();
    await read.catch(() => undefined);
    expect(reading.errors).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reads a long backlog a page at a time', async () => {
    const { log, follower } = await follow({ ...DEFAULT_FOLLOWER, pageSize: 10 });
    const before = log.reads;
    log.inner.append(Array.from({ length: 35 }, () => user()));
    await follower.caughtUp();
    expect(follower.current).toBe(35);
    expect(log.reads - before).toBeGreaterThanOrEqual(4);
  });

  it('forgets each member named before its position is reached', async () => {
    const { log, cache, follower, states, loads } = await follow();
    const userId = randomUUID();
    states.set(userId, { tenantId: tenant, userId, role: 'owner', authVersion: 0 });
    await cache.user(tenant, userId);
    await cache.user(tenant, userId);
    expect(loads()).toBe(1);
    states.set(userId, { tenantId: tenant, userId, role: 'viewer', authVersion: 1 });
    log.inner.append([user(userId)]);
    await follower.caughtUp();
    expect(await cache.user(tenant, userId)).toMatchObject({ role: 'viewer' });
  });

  it('when told the log grew, answers nothing from memory until it has read it', async () => {
    const { log, cache, follower, states, loads } = await follow();
    const userId = randomUUID();
    states.set(userId, { tenantId: tenant, userId, role: 'owner', authVersion: 0 });
    await cache.user(tenant, userId);
    // The database notified this instance: some change is on its way, not yet read.
    follower.wake(true);
    states.set(userId, { tenantId: tenant, userId, role: 'viewer', authVersion: 1 });
    expect(await cache.user(tenant, userId)).toMatchObject({ role: 'viewer' });
    expect(loads()).toBe(2);
    log.inner.append([user(userId)]);
    await follower.caughtUp();
    await cache.user(tenant, userId);
    await cache.user(tenant, userId);
    expect(loads()).toBe(3); // the fenced load was not kept; once read, memory answers again
  });

  it('reach: reads the log when asked for a position it has not applied, and says so when the log has none that high', async () => {
    const log = new CountedLog();
    const follower = new CredentialChangeFollower(log, new CachedCredentialStates({
      users: { findAuthState: async () => null }, apiKeys: { findActiveByHash: async () => null }, sessions: { findLive: async () => null },
    }), new CredentialChangeFanOut(false), () => undefined);
    await follower.listening();
    log.inner.append([user(), user(), user()]); // nobody woke the follower: as a notification still on its way
    expect(follower.current).toBe(0);
    expect(await follower.reach(2)).toBe(3);
    const reads = log.reads;
    expect(await follower.reach(1)).toBe(3);
    expect(log.reads).toBe(reads); // already there: no read
    expect(await follower.reach(99)).toBe(3);
  });

  it('reach: under a steady stream of changes, answers after the first pass that began after the call, not when the stream stops', async () => {
    // Every read takes a turn of the event loop, during which another commit is notified: the stream
    // ends on its own only after 50 reads.
    class StreamingLog extends CountedLog {
      follower: CredentialChangeFollower | undefined;
      override async read(after: number, limit: number): Promise<ChangeLogPage> {
        const page = await super.read(after, limit);
        if (this.reads < 50) {
          this.inner.append([user()]);
          this.follower?.wake(true);
          await nextTurn();
        }
        return page;
      }
    }
    const log = new StreamingLog();
    const follower = new CredentialChangeFollower(log, new CachedCredentialStates({
      users: { findAuthState: async () => null }, apiKeys: { findActiveByHash: async () => null }, sessions: { findLive: async () => null },
    }), new CredentialChangeFanOut(false), () => undefined);
    await follower.listening();
    log.follower = follower;
    log.inner.append([user()]);
    const readsBefore = log.reads;
    expect(await follower.reach(1)).toBeGreaterThanOrEqual(1);
    expect(log.reads - readsBefore).toBeLessThan(5); // a pass or two, not the whole stream
    await follower.caughtUp();
  });

  it('a position skipped (pruned before it was read) or gone back (a restored database) interrupts everyone and starts from the head', async () => {
    const { log, fanOut, follower } = await follow();
    log.inner.append([user()]);
    await follower.caughtUp();
    const first = recorder();
    fanOut.subscribe(first.subscriber);
    log.override = (page) => ({ head: page.head + 5, changes: [] }); // rows pruned past this instance
    log.inner.append([user()]);
    await follower.caughtUp();
    expect(first.seen).toEqual(['interrupted']);
    expect(follower.current).toBe(7);

    const second = recorder();
    expect(fanOut.subscribe(second.subscriber)?.position).toBe(7);
    log.override = () => ({ head: 1, changes: [] }); // a restore: the head is behind this instance
    follower.wake(false);
    await follower.caughtUp();
    expect(second.seen).toEqual(['interrupted']);
    expect(follower.current).toBe(1);
  });

  it('a logged "everything" clears the cache and interrupts the subscribers; later changes still arrive', async () => {
    const { log, cache, fanOut, follower, states, loads } = await follow();
    const userId = randomUUID();
    states.set(userId, { tenantId: tenant, userId, role: 'owner', authVersion: 0 });
    await cache.user(tenant, userId);
    const before = recorder();
    fanOut.subscribe(before.subscriber);
    const after = recorder();
    log.inner.append([{ kind: 'everything' }]);
    await follower.caughtUp();
    fanOut.subscribe(after.subscriber);
    const later = user();
    log.inner.append([later]);
    await follower.caughtUp();
    await cache.user(tenant, userId);
    expect(loads()).toBe(2);
    expect(before.seen).toEqual(['interrupted']);
    expect(after.seen).toEqual([[{ ...later, position: 2 }]]);
  });

  it('deaf: interrupts subscribers and refuses new ones; hearing again, welcomes them from the head', async () => {
    const { log, fanOut, follower } = await follow();
    const before = recorder();
    fanOut.subscribe(before.subscriber);
    follower.lost();
    expect(before.seen).toEqual(['interrupted']);
    expect(fanOut.subscribe(recorder().subscriber)).toBeNull();
    log.inner.append([user(), user()]);
    await follower.listening();
    const after = recorder();
    expect(fanOut.subscribe(after.subscriber)?.position).toBe(2);
  });

  it('watchers hear every batch and every reset, and are never unsubscribed', async () => {
    const { log, fanOut, follower } = await follow();
    const heard: string[] = [];
    fanOut.watch({ changes: (batch) => heard.push(`batch of ${batch.length}`), reset: () => heard.push('reset') });
    log.inner.append([{ kind: 'service-key', serviceKeyId: randomUUID() }, user()]);
    await follower.caughtUp();
    follower.lost();
    await follower.listening();
    log.inner.append([user()]);
    await follower.caughtUp();
    expect(heard).toEqual(['batch of 2', 'reset', 'reset', 'batch of 1']);
  });

  it('a read that fails keeps the cache fenced, reports the error, and tries again', async () => {
    const { log, follower, errors } = await follow({ ...DEFAULT_FOLLOWER, retryMs: 5 });
    log.override = () => {
      throw new Error('database down');
    };
    follower.wake(true);
    await expect(follower.caughtUp()).rejects.toThrow('database down');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    log.override = undefined;
    log.inner.append([user()]);
    expect(await follower.caughtUp()).toBe(1);
  });
});
