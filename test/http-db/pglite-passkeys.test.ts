import { databaseApp } from '../support/database-app';
import { describePasskeysFlow } from './passkeys-flow';

describePasskeysFlow('PGlite', () => databaseApp('pglite'));
