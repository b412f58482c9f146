import { spawnSync } from 'node:child_process';

/**
 * Whether tests run against a real Postgres. DATABASE_URL names it; without one the Postgres
 * suites are skipped, unless REQUIRE_POSTGRES=1 (CI), where a missing or unreachable server
 * must fail the run rather than silently shrink it.
 */
export type PostgresForTests =
  | { readonly kind: 'available'; readonly url: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string };

const PROBE_TIMEOUT_MS = 10_000;

export function postgresForTests(env: NodeJS.ProcessEnv = process.env): PostgresForTests {
  const url = env['DATABASE_URL'];
  const required = env['REQUIRE_POSTGRES'] === '1';
  if (!url) {
    return required
      ? { kind: 'fail', reason: 'REQUIRE_POSTGRES=1 but DATABASE_URL is not set' }
      : { kind: 'skip', reason: 'DATABASE_URL is not set' };
  }
  const problem = probe(url);
  if (problem === null) return { kind: 'available', url };
  const reason = `Postgres at DATABASE_URL is unreachable: ${problem}`;
  return required ? { kind: 'fail', reason } : { kind: 'skip', reason };
}

/** The URL to test against, or null to skip; throws (failing the file) when Postgres is required but unusable. */
export function postgresUrlOrSkip(): string | null {
  const pg = postgresForTests();
  if (pg.kind === 'fail') throw new Error(pg.reason);
  return pg.kind === 'available' ? pg.url : null;
}

/** A describe block that runs with the database URL, is skipped without one, or fails loudly when required. */
export function describeIfPostgres(name: string, body: (url: string) => void): void {
  const pg = postgresForTests();
  if (pg.kind === 'available') {
    describe(name, () => body(pg.url));
  } else if (pg.kind === 'skip') {
    // A URL that was set but does not answer is worth a line: the skip is probably not intended.
    if (process.env['DATABASE_URL']) console.warn(`${name}: skipped, ${pg.reason}`);
    describe.skip(`${name} (skipped: ${pg.reason})`, () => {
      test.todo('set DATABASE_URL to run');
    });
  } else {
    describe(name, () => {
      test('Postgres is available', () => {
        throw new Error(pg.reason);
      });
    });
  }
}

/**
 * Jest collects tests synchronously, so reachability is checked in a child process: connect and
 * run one query with the project's own pg. Returns null when that works, else the reason.
 */
function probe(url: string): string | null {
  const script = `
    const { Client } = require(process.argv[1]);
    const client = new Client({ connectionString: process.argv[2], connectionTimeoutMillis: 5000 });
    client.connect().then(() => client.query('select 1')).then(
      () => client.end().then(() => process.exit(0)),
      (error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, require.resolve('pg'), url], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (result.status === 0) return null;
  return result.error?.message ?? (result.stderr.trim() || `probe exited with ${result.status}`);
}
