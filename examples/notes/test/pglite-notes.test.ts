import { servingTestPglite } from '../../../test/support/pglite';
import { moduleMigrationsOf } from '../../../src/bootstrap/modules/compose-modules';
import { assertPgliteCanLoadInJest } from '../../../test/support/pglite';
import { sqlTestPortcullis } from '../../../test/support/sql-test-portcullis';
import { notesModule } from '../notes-module';
import { describeNotesHttpCases } from './notes-http-cases';
import { describeNotesOnSql } from './notes-wall-cases';

// Checked before PGlite loads: without the flag its failure would take the whole worker down.
assertPgliteCanLoadInJest();

describeNotesOnSql('pglite', () => servingTestPglite(moduleMigrationsOf([notesModule])));
describeNotesHttpCases('pglite', () => sqlTestPortcullis('pglite', [notesModule]));
