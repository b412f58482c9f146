import { databaseApp } from '../support/database-app';
import { describeAuditTrail } from './audit-flow';

describeAuditTrail('PGlite', () => databaseApp('pglite'));
