import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// The platform's record of the token signing keys: each key id and its state (signing, next,
// previous, retired) as the configuration last seen at a start held it; never a secret. Every
// instance compares its configuration with it at start, under a lock, and records what changed
// with an audit event of no tenant, so a change is recorded once however many instances start with
// it. Belongs to no tenant, so no tenant wall: the service's role reads and writes it (it holds ids
// that any token's header shows), and never deletes a row.

const role = sql.id(APP_ROLE);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('key_id', 'text', (col) => col.primaryKey())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('changed_at', 'timestamptz', (col) => col.notNull())
    .addCheckConstraint('signing_keys_state_check', sql`state in ('signing', 'next', 'previous', 'retired')`)
    .addCheckConstraint('signing_keys_key_id_check', sql`key_id ~ '^[A-Za-z0-9._-]{1,64}$'`)
    .execute();
  // One signing key at a time: a second one could only be a recorder that skipped the lock.
  await sql`create unique index signing_keys_one_signing_key on signing_keys ((true)) where state = 'signing'`.execute(db);
  // UPDATE also allows LOCK TABLE ... IN SHARE ROW EXCLUSIVE MODE, the recorders' lock.
  await sql`grant select, insert, update on signing_keys to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
}
