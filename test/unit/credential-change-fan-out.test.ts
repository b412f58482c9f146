import { AnnouncingCredentialStates } from '../../src/adapters/cache/announcing-credential-states';
import { CachedCredentialStates } from '../../src/adapters/cache/cached-credential-states';
import { CredentialChangeFanOut } from '../../src/adapters/cache/credential-change-fan-out';
import type { CredentialChange } from '../../src/application/ports/credential-states';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';

function recorder() {
  const seen: Array<CredentialChange | 'interrupted'> = [];
  return { seen, subscriber: { change: (c: CredentialChange) => seen.push(c), interrupted: () => seen.push('interrupted') } };
}

describe('the credential change fan-out, fed by the instance cache', () => {
  const build = () => {
    const fanOut = new CredentialChangeFanOut();
    const credentials = new AnnouncingCredentialStates(new CachedCredentialStates(createMemoryStorage().repos), fanOut);
    return { fanOut, credentials };
  };

  it('hands every change the cache forgets to every subscriber, until they unsubscribe', () => {
    const { fanOut, credentials } = build();
    const first = recorder();
    const second = recorder();
    const subscription = fanOut.subscribe(first.subscriber)!;
    fanOut.subscribe(second.subscriber);
    credentials.forget({ kind: 'user', userId: 'u1' });
    subscription.unsubscribe();
    credentials.forget({ kind: 'api-key', keyId: 'k1' });
    expect(first.seen).toEqual([{ kind: 'user', userId: 'u1' }]);
    expect(second.seen).toEqual([{ kind: 'user', userId: 'u1' }, { kind: 'api-key', keyId: 'k1' }]);
  });

  it('when the instance stops hearing changes, interrupts every subscriber and refuses new ones until it hears again', () => {
    const { fanOut, credentials } = build();
    const before = recorder();
    fanOut.subscribe(before.subscriber);
    credentials.suspend();
    expect(before.seen).toEqual(['interrupted']);
    expect(fanOut.subscribe(recorder().subscriber)).toBeNull();
    credentials.forget({ kind: 'user', userId: 'u1' });
    expect(before.seen).toEqual(['interrupted']);

    credentials.resume();
    const after = recorder();
    expect(fanOut.subscribe(after.subscriber)).not.toBeNull();
    credentials.forget({ kind: 'user', userId: 'u2' });
    expect(after.seen).toEqual([{ kind: 'user', userId: 'u2' }]);
  });

  it('told to forget everything while hearing (an unreadable announcement), interrupts the subscribers but stays open', () => {
    const { fanOut, credentials } = build();
    const current = recorder();
    fanOut.subscribe(current.subscriber);
    credentials.resume();
    expect(current.seen).toEqual(['interrupted']);
    expect(fanOut.subscriberCount).toBe(0);
    expect(fanOut.subscribe(recorder().subscriber)).not.toBeNull();
  });
});
