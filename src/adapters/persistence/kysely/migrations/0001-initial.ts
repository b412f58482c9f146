import { type Kysely, sql } from 'kysely';

/** The constraint whose violation means "e-mail already registered"; the user repository names it. */
export const USERS_EMAIL_UNIQUE = 'users_email_key';

// Migrations see the schema as it was when they were written, not today's DB interface.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('tenant_id', 'uuid', (col) => col.notNull().references('tenants.id'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint(USERS_EMAIL_UNIQUE, ['email'])
    .addCheckConstraint('users_role_check', sql`role in ('owner', 'admin', 'member', 'viewer')`)
    .execute();
  await db.schema.createIndex('users_tenant_id_idx').on('users').column('tenant_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('tenant_id', 'uuid', (col) => col.notNull().references('tenants.id'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('key_prefix', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('revoked', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('api_keys_key_prefix_idx').on('api_keys').column('key_prefix').execute();

  await db.schema
    .createTable('tenant_invites')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('tenant_id', 'uuid', (col) => col.notNull().references('tenants.id'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('member'))
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'uuid', (col) => col.notNull().references('users.id'))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('tenant_invites_role_check', sql`role in ('admin', 'member', 'viewer')`)
    .execute();
  // Serves the list endpoint: one tenant's invites, newest first.
  await db.schema
    .createIndex('tenant_invites_tenant_created_idx')
    .on('tenant_invites')
    .columns(['tenant_id', 'created_at desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tenant_invites', 'api_keys', 'users', 'tenants']) {
    await db.schema.dropTable(table).execute();
  }
}
