import { describeIfAvailable, type ExternalService } from './external-service';

/** DATABASE_URL names the server; REQUIRE_POSTGRES=1 (CI) turns a missing one into a failure. */
const POSTGRES: ExternalService = {
  label: 'Postgres',
  urlVariable: 'DATABASE_URL',
  requireVariable: 'REQUIRE_POSTGRES',
  clientModule: 'pg',
  probe: `
    const { Client } = require(process.argv[1]);
    const client = new Client({ connectionString: process.argv[2], connectionTimeoutMillis: 5000 });
    client.connect().then(() => client.query('select 1')).then(
      () => client.end().then(() => process.exit(0)),
      (error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });`,
};

export function describeIfPostgres(name: string, body: (url: string) => void): void {
  describeIfAvailable(POSTGRES, name, body);
}
