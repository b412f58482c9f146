import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeTenantWallCases } from './tenant-walls-cases';

// Checked before PGlite loads: without the flag its failure would take the whole worker down.
assertPgliteCanLoadInJest();

// PGlite connects as a superuser, which row security never binds: these pass only because the
// session has switched to the app role after migrating.
describeTenantWallCases('pglite', () => servingTestPglite());
