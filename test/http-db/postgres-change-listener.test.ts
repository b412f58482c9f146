import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { CREDENTIAL_CHANGES_CHANNEL } from '../../src/adapters/persistence/kysely/change-feed/credential-announcements';
import { CredentialChangeListener } from '../../src/adapters/persistence/kysely/change-feed/credential-change-listener';
import { describeIfPostgres } from '../support/postgres';

type Event = 'notified' | 'listening' | 'lost';

async function waitFor(events: Event[], predicate: (events: Event[]) => boolean, ms = 3_000): Promise<void> {
  const start = Date.now();
  while (!predicate(events)) {
    if (Date.now() - start > ms) throw new Error(`timed out; events so far: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeIfPostgres('Postgres: the credential change listener', (url) => {
  let other: Client;
  let listener: CredentialChangeListener;
  const events: Event[] = [];
  const name = `listener-test-${randomUUID()}`;

  beforeAll(async () => {
    other = new Client({ connectionString: url });
    await other.connect();
    listener = new CredentialChangeListener(url, {
      onNotified: () => events.push('notified'),
      onListening: () => events.push('listening'),
      onLost: () => events.push('lost'),
      onError: () => undefined,
    }, { retryMs: 50, heartbeatMs: 1_000, applicationName: name });
    await listener.start();
  });
  afterAll(async () => {
    await listener?.close();
    await other?.end();
  });

  const notify = (payload: string) => other.query('select pg_notify($1, $2)', [CREDENTIAL_CHANGES_CHANNEL, payload]);

  it('hears notifications committed on another connection, and only once they commit', async () => {
    expect(events).toEqual(['listening']);
    await other.query('begin');
    await notify('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['listening']); // not yet: the transaction is open
    await other.query('commit');
    await waitFor(events, (seen) => seen.length === 2);
    expect(events[1]).toBe('notified');

    await other.query('begin');
    await notify('');
    await other.query('rollback');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toHaveLength(2); // a rolled-back change is never announced
  });

  it('takes any payload (an operator\'s, an older version\'s) only as "read the log"', async () => {
    events.length = 0;
    await notify(`user:${randomUUID()}`);
    await waitFor(events, (seen) => seen.length === 1);
    expect(events).toEqual(['notified']);
  });

  it('reports a lost connection, reconnects, and starts over', async () => {
    events.length = 0;
    await other.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
    await waitFor(events, (seen) => seen.includes('listening'));
    expect(events).toEqual(['lost', 'listening']);

    await notify('');
    await waitFor(events, (seen) => seen.length === 3);
    expect(events[2]).toBe('notified');
  });
});
