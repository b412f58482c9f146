import { databaseApp } from '../support/database-app';
import { describeFullFlow } from './full-flow';

describeFullFlow('PGlite', () => databaseApp('pglite'));
