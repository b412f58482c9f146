import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeSessionsFlow } from './sessions-flow';

describeIfPostgres('Postgres: sessions', (url) => {
  describeSessionsFlow('Postgres', () => databaseApp({ postgres: url }));
});
