import { type Kysely, sql } from 'kysely';
import { APP_ROLE, TENANT_SETTING } from './0002-tenant-walls';

// The audit trail. Append-only by grant: the service's role may insert and read, never update or
// delete, so not even a bug (or an injection) in the service can rewrite history. Behind the same
// tenant wall as the other tables; an event with no tenant (a failed login for an unknown e-mail)
// may be written by anyone and read by no tenant.
// No foreign keys: an event outlives what it names (a removed member, a revoked key).

const role = sql.id(APP_ROLE);
const currentTenant = sql`nullif(current_setting(${sql.lit(TENANT_SETTING)}, true), '')::uuid`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('tenant_id', 'uuid')
    .addColumn('actor_user_id', 'uuid')
    .addColumn('actor_method', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_id', 'uuid')
    .addColumn('client_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('request_id', 'text')
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull())
    .addColumn('details', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addCheckConstraint('audit_events_actor_method_check', sql`actor_method in ('jwt', 'api_key', 'none')`)
    .execute();
  // The list endpoint: one tenant's events newest first, resumed after a (occurred_at, id) cursor,
  // optionally for one actor or one action.
  await db.schema
    .createIndex('audit_events_tenant_time_idx')
    .on('audit_events')
    .columns(['tenant_id', 'occurred_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('audit_events_tenant_actor_time_idx')
    .on('audit_events')
    .columns(['tenant_id', 'actor_user_id', 'occurred_at desc', 'id desc'])
    .execute();

  await sql`grant select, insert on audit_events to ${role}`.execute(db);
  await sql`alter table audit_events enable row level security`.execute(db);
  await sql`
    create policy tenant_wall_read on audit_events for select to ${role}
      using (tenant_id = ${currentTenant})`.execute(db);
  await sql`
    create policy tenant_wall_append on audit_events for insert to ${role}
      with check (tenant_id is null or tenant_id = ${currentTenant})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
