import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { databaseApp } from '../support/database-app';
import { describeSsoPasswordRefusalFlow } from './sso-password-refusal-flow';

describeSsoPasswordRefusalFlow('PGlite', async () => {
  const dns = new InMemoryDnsTxtRecords();
  return { ...(await databaseApp('pglite', { dns })), dns };
});
