import { openServingPostgres } from '../../../src/adapters/persistence/kysely/driver/serving-database';
import { moduleMigrationsOf } from '../../../src/bootstrap/modules/compose-modules';
import { describeIfPostgres } from '../../../test/support/postgres';
import { sqlTestPortcullis } from '../../../test/support/sql-test-portcullis';
import { notesModule } from '../notes-module';
import { describeNotesHttpCases } from './notes-http-cases';
import { describeNotesOnSql } from './notes-wall-cases';

describeIfPostgres('notes on Postgres', (url) => {
  describeNotesOnSql('postgres', () => openServingPostgres(url, { max: 4, modules: moduleMigrationsOf([notesModule]) }));
  describeNotesHttpCases('postgres', () => sqlTestPortcullis({ postgres: url }, [notesModule]));
});
