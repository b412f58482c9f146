import { databaseApp } from '../support/database-app';
import { describeEmailAddressFlow } from './email-address-flow';

describeEmailAddressFlow('PGlite', () => databaseApp('pglite'));
