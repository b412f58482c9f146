import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeSsoPasswordRefusalFlow } from './sso-password-refusal-flow';

describeIfPostgres('single sign-on set-up and its policy over HTTP', (url) => {
  describeSsoPasswordRefusalFlow('Postgres', async () => {
    const dns = new InMemoryDnsTxtRecords();
    return { ...(await databaseApp({ postgres: url }, { dns })), dns };
  });
});
