import { databaseApp } from '../support/database-app';
import { describeSessionsFlow } from './sessions-flow';

describeSessionsFlow('PGlite', () => databaseApp('pglite'));
