import { type Kysely, sql } from 'kysely';
import { disableTenantWall, enableTenantWall } from 'portcullis';

// The module's one table, behind the tenant wall: the service's role sees and writes only the rows
// of the tenant its unit of work names, whatever a query's WHERE clause says.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notes')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    // A note goes with its tenant; the platform's table is the one thing of identity's it names.
    .addColumn('tenant_id', 'uuid', (col) => col.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_by', 'uuid', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addCheckConstraint('notes_title_length', sql`char_length(title) between 1 and 200`)
    .addCheckConstraint('notes_body_length', sql`char_length(body) <= 10000`)
    .execute();
  // The list: one tenant's notes, newest first.
  await db.schema.createIndex('notes_tenant_created_idx').on('notes').columns(['tenant_id', 'created_at desc', 'id desc']).execute();
  await enableTenantWall(db, 'notes');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await disableTenantWall(db, 'notes');
  await db.schema.dropTable('notes').execute();
}
