import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Service keys: the credentials of other services that verify callers through Portcullis
// (introspection and the change feed). They belong to no tenant, so the table has no tenant wall;
// instead the service's role may only read it. Keys are made and revoked by an operator, as the
// schema's owner, from the command line (`npm run service-key`).

export const SERVICE_KEYS_NAME_UNIQUE = 'service_keys_name_active_key';

const role = sql.id(APP_ROLE);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_keys')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('key_prefix', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint('service_keys_name_length_check', sql`char_length(name) between 1 and 100`)
    .execute();
  // One key in use per name, so an operator can revoke by name without ambiguity; a revoked name
  // may be given to a new key (the rotation: create the new key, deploy it, revoke the old one).
  await sql`create unique index ${sql.id(SERVICE_KEYS_NAME_UNIQUE)} on service_keys (name) where revoked_at is null`.execute(db);
  await sql`grant select on service_keys to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_keys').execute();
}
