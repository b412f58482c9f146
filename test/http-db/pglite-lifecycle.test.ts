import { databaseApp } from '../support/database-app';
import { describeLifecycle } from './lifecycle-flow';

describeLifecycle('PGlite', () => databaseApp('pglite'));
