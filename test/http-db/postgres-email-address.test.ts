import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeEmailAddressFlow } from './email-address-flow';

describeIfPostgres('Postgres: e-mail addresses over HTTP', (url) => {
  describeEmailAddressFlow('Postgres', () => databaseApp({ postgres: url }));
});
