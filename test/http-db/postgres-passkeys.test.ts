import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describePasskeysFlow } from './passkeys-flow';

describeIfPostgres('Postgres: passkeys', (url) => {
  // Two instances over one database: a ceremony's options and its verification may land on either.
  describePasskeysFlow('Postgres', async () => {
    const one = await databaseApp({ postgres: url });
    const two = await databaseApp({ postgres: url });
    return { app: one.app, other: two.app, close: async () => { await one.close(); await two.close(); } };
  });
});
