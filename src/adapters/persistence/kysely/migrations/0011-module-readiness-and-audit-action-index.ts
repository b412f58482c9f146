import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Two things the service needs once it serves product modules and a long audit trail:
//
// - APPLIED_MODULE_MIGRATIONS answers which of a product module's migrations are recorded (in
//   `<name>_kysely_migration`, a table of the owner's that the app role may not read), as
//   APPLIED_MIGRATIONS (0006) does for identity's. Without it, readiness and the start-up check read
//   the table as the login, which a least-privileged login may not: /readyz stayed 503 for good.
//   The module name is checked against the module-name pattern and only `public.<name>_kysely_migration`
//   is ever read, so the function cannot be pointed at any other table.
// - AUDIT_ACTION_INDEX serves the audit list filtered by action (the console's filter): one tenant's
//   events of one action, newest first, as the list orders them. Without it that page walked the
//   tenant's whole trail by time and threw away every other action.
//   `if not exists`: on a large trail an operator may build it beforehand with
//   `create index concurrently` under the same name (docs/operations.md), and this step then
//   finds it and does not lock the table's writes while it builds.

export const APPLIED_MODULE_MIGRATIONS = 'applied_module_migrations';
export const AUDIT_ACTION_INDEX = 'audit_events_tenant_action_time_idx';

/** compose-modules.ts's module-name rule, repeated where the database enforces it. */
const MODULE_NAME_PATTERN = '^[a-z][a-z0-9_]{0,30}$';

const role = sql.id(APP_ROLE);
const signature = sql`${sql.id(APPLIED_MODULE_MIGRATIONS)}(text)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.id(APPLIED_MODULE_MIGRATIONS)}(p_module text)
      returns setof text
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    declare
      recorded regclass;
    begin
      if p_module is null or p_module !~ ${sql.lit(MODULE_NAME_PATTERN)} then
        return;
      end if;
      recorded := to_regclass(format('public.%I', p_module || '_kysely_migration'));
      if recorded is null then
        return;
      end if;
      return query execute format('select name::text from %s', recorded);
    end $$`.execute(db);
  await sql`revoke all on function ${signature} from public`.execute(db);
  await sql`grant execute on function ${signature} to ${role}`.execute(db);

  await db.schema
    .createIndex(AUDIT_ACTION_INDEX)
    .ifNotExists()
    .on('audit_events')
    .columns(['tenant_id', 'action', 'occurred_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex(AUDIT_ACTION_INDEX).ifExists().execute();
  await sql`drop function ${signature}`.execute(db);
}
