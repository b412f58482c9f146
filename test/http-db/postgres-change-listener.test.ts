import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { CREDENTIAL_CHANGES_CHANNEL } from '../../src/adapters/persistence/kysely/change-feed/credential-announcements';
import { CredentialChangeListener, type ListenerConnection } from '../../src/adapters/persistence/kysely/change-feed/credential-change-listener';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { FORGET_EVERY_CREDENTIAL } from '../../src/adapters/persistence/kysely/migrations/0010-credential-change-log';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-postgres-database';
import { describeIfPostgres } from '../support/postgres';

type Event = 'notified' | 'listening' | 'lost';

async function waitFor(events: Event[], predicate: (events: Event[]) => boolean, ms = 3_000): Promise<void> {
  const start = Date.now();
  while (!predicate(events)) {
    if (Date.now() - start > ms) throw new Error(`timed out; events so far: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A listener that records what it reports, quick to reconnect, named in pg_stat_activity. */
async function recordingListener(connection: string | ListenerConnection, events: Event[], name: string): Promise<CredentialChangeListener> {
  const listener = new CredentialChangeListener(connection, {
    onNotified: () => events.push('notified'),
    onListening: () => events.push('listening'),
    onLost: () => events.push('lost'),
    onError: () => undefined,
  }, { retryMs: 50, heartbeatMs: 1_000, applicationName: name });
  await listener.start();
  return listener;
}

describeIfPostgres('Postgres: the credential change listener', (serverUrl) => {
  let other: Client;
  let listener: CredentialChangeListener;
  // A database of its own: notifications are per database, and other suites commit credential
  // changes on the shared one, which would be heard in the windows where none is expected.
  let database: FreshDatabase;
  const events: Event[] = [];
  const name = `listener-test-${randomUUID()}`;

  beforeAll(async () => {
    database = await createFreshDatabase(serverUrl);
    other = new Client({ connectionString: database.url });
    await other.connect();
    listener = await recordingListener(database.url, events, name);
  });
  afterAll(async () => {
    await listener?.close();
    await other?.end();
    await database?.drop();
  });

  const notify = (payload: string) => other.query('select pg_notify($1, $2)', [CREDENTIAL_CHANGES_CHANNEL, payload]);

  it('hears notifications committed on another connection, and only once they commit', async () => {
    expect(events).toEqual(['listening']);
    await other.query('begin');
    await notify('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const whileOpen = [...events];
    await other.query('commit');
    expect(whileOpen).toEqual(['listening']); // not yet: the transaction was open
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

describeIfPostgres('Postgres: the change log\'s head, read on the listener\'s connection', (url) => {
  let owner: Client;
  let listener: CredentialChangeListener;
  const events: Event[] = [];
  const name = `head-reader-test-${randomUUID()}`;

  beforeAll(async () => {
    const migrator = openPostgres(url, { max: 1 });
    try {
      await migrateAll(migrator.db);
    } finally {
      await migrator.close();
    }
    owner = new Client({ connectionString: url });
    await owner.connect();
    listener = await recordingListener({ connectionString: url, role: APP_ROLE }, events, name);
  });
  afterAll(async () => {
    await listener?.close();
    await owner?.end();
  });

  /** A listener of its own as the app role, whose events nobody watches. */
  const appRoleListener = () => new CredentialChangeListener({ connectionString: url, role: APP_ROLE }, {
    onNotified: () => undefined, onListening: () => undefined, onLost: () => undefined, onError: () => undefined,
  });

  async function headNow(): Promise<number> {
    const { rows } = await owner.query<{ position: string }>('select position from credential_change_head');
    return Number(rows[0]!.position);
  }

  /** A committed change, as an operator makes one: the head moves past every reader's position. */
  async function commitChange(): Promise<number> {
    await owner.query(`select ${FORGET_EVERY_CREDENTIAL}()`);
    return headNow();
  }

  /** At or past the change committed before the read; other suites may commit on the same database meanwhile. */
  async function expectReadAfter(read: Promise<number> | undefined, committed: number): Promise<void> {
    const position = await read;
    expect(position).toBeGreaterThanOrEqual(committed);
    expect(position).toBeLessThanOrEqual(await headNow());
  }

  it('as the app role, reads every change committed before the read, without waiting for its notification', async () => {
    for (let change = 0; change < 5; change += 1) {
      const head = await commitChange();
      await expectReadAfter(listener.readHead(), head); // no notification waited for
    }
  });

  it('reads nothing while its connection is lost, and reads the head again once it listens again', async () => {
    events.length = 0;
    await owner.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
    await waitFor(events, (seen) => seen.includes('lost'));
    expect(listener.readHead()).toBeUndefined();
    const missed = await commitChange(); // committed while nobody listened
    await waitFor(events, (seen) => seen.includes('listening'));
    await expectReadAfter(listener.readHead(), missed);
    const later = await commitChange();
    await expectReadAfter(listener.readHead(), later);
  });

  it('answers head reads asked for at once, from its very first, in order, each at or after the change committed before it', async () => {
    const fresh = appRoleListener();
    await fresh.start();
    try {
      const head = await commitChange();
      // Asked before any answer: only the first prepares the statement.
      const reads = await Promise.all(Array.from({ length: 5 }, () => fresh.readHead()));
      for (const position of reads) expect(position).toBeGreaterThanOrEqual(head);
      expect([...reads].sort((a, b) => a! - b!)).toEqual(reads); // answered in the order sent
      const later = await commitChange();
      await expectReadAfter(fresh.readHead(), later);
    } finally {
      await fresh.close();
    }
  });

  it('reads nothing once closed', async () => {
    const closing = appRoleListener();
    await closing.start();
    try {
      const head = await commitChange();
      await expectReadAfter(closing.readHead(), head);
    } finally {
      await closing.close();
    }
    expect(closing.readHead()).toBeUndefined();
  });
});
