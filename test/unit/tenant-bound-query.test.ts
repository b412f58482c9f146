import { type Connection, Query } from 'pg';
import { TenantBoundQuery } from '../../src/adapters/persistence/kysely/driver/tenant-bound-query';

/**
 * TenantBoundQuery leans on pg's Query and Connection internals: the messages Query.submit writes
 * in the extended protocol, and the handlers pg's client calls as the server answers. These cases
 * pin exactly that behaviour against the installed pg, with a connection that records what is
 * written and replays the server's answers, so a pg upgrade that changes it fails here, loudly,
 * before any tenant-scoped read on Postgres can go wrong (postgres-tenant-scope.test.ts checks the
 * same path against a real server).
 */
function recordingConnection() {
  const written: Array<[string, unknown]> = [];
  const record = (name: string) => (message?: unknown) => {
    written.push([name, message]);
  };
  const connection = {
    parsedStatements: {},
    submittedNamedStatements: {},
    stream: { cork: record('cork'), uncork: record('uncork') },
    parse: record('parse'),
    bind: record('bind'),
    describe: record('describe'),
    execute: record('execute'),
    sync: record('sync'),
    flush: record('flush'),
    query: record('simple query'),
    close: record('close'),
  };
  return { connection: connection as unknown as Connection, written };
}

const text = (value: string) => Buffer.from(value);

/** The handlers pg's client calls on the active query as the server answers (not in pg's types). */
interface ServerAnswers {
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
  handleRowDescription(message: unknown): void;
  handleReadyForQuery(connection: Connection): void;
  handleError(error: Error, connection: Connection): void;
}
const answersOf = (query: TenantBoundQuery) => query as unknown as ServerAnswers;

describe('TenantBoundQuery against the installed pg', () => {
  it('pg still exports the Query methods it overrides or calls', () => {
    for (const method of ['submit', 'handleDataRow', 'handleCommandComplete', 'handleRowDescription', 'handleReadyForQuery', 'handleError']) {
      expect(typeof (Query.prototype as unknown as Record<string, unknown>)[method]).toBe('function');
    }
  });

  it('writes set_config and the statement in one corked batch, before a single Sync', () => {
    const { connection, written } = recordingConnection();
    const query = new TenantBoundQuery('app.tenant_id', 'tenant-1', 'select id from notes where id = $1', ['n1'], () => undefined);
    expect(query.submit(connection)).toBeFalsy();
    expect(written.map(([name]) => name)).toEqual([
      'cork', 'parse', 'bind', 'execute', // set_config: no Describe, so it answers no RowDescription
      'cork', 'parse', 'bind', 'describe', 'execute', 'sync', 'uncork', // the statement, by pg's own Query.submit
      'uncork', // corks nest: everything leaves in one write when the outer one is released
    ]);
    expect(written[1]![1]).toMatchObject({ text: 'select set_config($1, $2, true)' });
    expect(written[2]![1]).toMatchObject({ values: ['app.tenant_id', 'tenant-1'] });
    expect(written[5]![1]).toMatchObject({ text: 'select id from notes where id = $1' });
    expect(written[6]![1]).toMatchObject({ values: ['n1'] });
    expect(written.filter(([name]) => name === 'sync')).toHaveLength(1);
  });

  it('answers with the statement\'s rows and command only, skipping set_config\'s', () => {
    const { connection } = recordingConnection();
    let answer: { command: string; rowCount: number | null; rows: unknown[] } | undefined;
    const query = new TenantBoundQuery('app.tenant_id', 'tenant-1', 'select id from notes', [], (error, result) => {
      expect(error).toBeNull();
      answer = result;
    });
    query.submit(connection);
    const server = answersOf(query);
    // The server's answers, in order, as pg's client hands them to the active query.
    server.handleDataRow({ fields: [text('tenant-1')] }); // set_config's row
    server.handleCommandComplete({ text: 'SELECT 1' }, connection); // set_config's completion
    server.handleRowDescription({ fields: [{ name: 'id', dataTypeID: 25, format: 'text' }] });
    server.handleDataRow({ fields: [text('n1')] });
    server.handleDataRow({ fields: [text('n2')] });
    server.handleCommandComplete({ text: 'SELECT 2' }, connection);
    server.handleReadyForQuery(connection);
    expect(answer).toMatchObject({ command: 'SELECT', rowCount: 2, rows: [{ id: 'n1' }, { id: 'n2' }] });
  });

  it('passes an error of either statement to the callback', () => {
    const { connection } = recordingConnection();
    const errors: unknown[] = [];
    const query = new TenantBoundQuery('app.tenant_id', 'not-a-uuid', 'select 1', [], (error) => errors.push(error));
    query.submit(connection);
    const refused = Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' });
    answersOf(query).handleError(refused, connection);
    expect(errors).toEqual([refused]);
  });
});
