import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeAuditTrail } from './audit-flow';

describeIfPostgres('audit trail over HTTP', (url) => {
  describeAuditTrail('Postgres', () => databaseApp({ postgres: url }));
});
