import { type Kysely, sql } from 'kysely';

// Tenant walls: Postgres itself keeps each tenant's rows apart, behind the repositories' own
// tenant filters. The service works as APP_ROLE (not a superuser, not the tables' owner), so the
// row-level security policies below bind it; a statement sees and writes only the rows of the
// tenant named by the transaction's TENANT_SETTING. The lookups the spec makes global (login by
// e-mail, key by hash, invite by token) are security-definer functions that answer one exact key.

/** The role the service switches to after migrating; cluster-wide, so shared by every database. */
export const APP_ROLE = 'portcullis_app';
/** The transaction-local setting the policies read; repositories set it with set_config(…, true). */
export const TENANT_SETTING = 'app.tenant_id';

export const LOOKUP_USER_BY_EMAIL = 'lookup_user_by_email';
export const LOOKUP_ACTIVE_API_KEY = 'lookup_active_api_key';
export const LOOKUP_INVITE_BY_TOKEN = 'lookup_invite_by_token';

/** Each walled table and the column naming its tenant (a tenant's own row is keyed by its id). */
const WALLED_TABLES = [
  ['tenants', 'id'],
  ['users', 'tenant_id'],
  ['api_keys', 'tenant_id'],
  ['tenant_invites', 'tenant_id'],
] as const;

const role = sql.id(APP_ROLE);
// Unset, the setting is NULL; after a transaction that set it locally it reads '' for the rest of
// the session. Both mean "no tenant", which matches no row.
const currentTenant = sql`nullif(current_setting(${sql.lit(TENANT_SETTING)}, true), '')::uuid`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAppRole(db);
  await sql`grant usage on schema public to ${role}`.execute(db);

  for (const [table, tenantColumn] of WALLED_TABLES) {
    await sql`grant select, insert, update, delete on ${sql.table(table)} to ${role}`.execute(db);
    // ENABLE without FORCE: the owner (the migrating user) stays outside the walls, which is what
    // lets the security-definer lookups below read across tenants when the owner is not a superuser.
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_wall on ${sql.table(table)} to ${role}
        using (${sql.ref(tenantColumn)} = ${currentTenant})
        with check (${sql.ref(tenantColumn)} = ${currentTenant})`.execute(db);
  }

  await createLookups(db);
}

/**
 * Roles belong to the cluster, not the database: the role may exist already (another database,
 * or a DBA made it), and two databases migrating at once can both miss it in pg_roles, so the
 * loser's duplicate is swallowed. Kysely's migration lock only serialises one database.
 */
async function createAppRole(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      if not exists (select from pg_catalog.pg_roles where rolname = ${sql.lit(APP_ROLE)}) then
        begin
          create role ${role} nologin;
        exception when duplicate_object or unique_violation then
          null;
        end;
      end if;
    end $$`.execute(db);

  // A non-superuser migrator needs membership to SET ROLE. From Postgres 16 the creator of a role
  // holds it only with ADMIN (no SET), so membership alone is not enough there; ask for SET.
  // Skipped when already possible, so a migrator a DBA set up without ADMIN does not fail here.
  await sql`
    do $$
    declare
      can_switch boolean;
    begin
      if current_setting('server_version_num')::int >= 160000 then
        can_switch := pg_has_role(current_user, ${sql.lit(APP_ROLE)}, 'SET');
      else
        can_switch := pg_has_role(current_user, ${sql.lit(APP_ROLE)}, 'MEMBER');
      end if;
      if not can_switch then
        execute format('grant %I to %I', ${sql.lit(APP_ROLE)}, current_user);
      end if;
    end $$`.execute(db);
}

/**
 * The narrow, reviewed ways across the walls. Each runs as the owner (SECURITY DEFINER), answers
 * only an exact match on its key, returns what the port needs and no more, pins search_path so a
 * caller cannot shadow a table, and is callable by the app role only. plpgsql rather than SQL:
 * a definer function is never inlined, and plpgsql keeps its plan for the session where a SQL
 * function would plan its query again on every call (before Postgres 18).
 */
async function createLookups(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.id(LOOKUP_USER_BY_EMAIL)}(p_email text)
      returns table (id uuid, tenant_id uuid, email text, password_hash text, role text, created_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select u.id, u.tenant_id, u.email, u.password_hash, u.role, u.created_at
        from public.users u
        where u.email = p_email;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(p_key_prefix text, p_key_hash text)
      returns table (key_id uuid, tenant_id uuid, user_id uuid, role text)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select k.id, k.tenant_id, k.user_id, u.role
        from public.api_keys k
        join public.users u on u.id = k.user_id
        where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and not k.revoked;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(LOOKUP_INVITE_BY_TOKEN)}(p_token text)
      returns table (id uuid, tenant_id uuid, email text, role text, token text, invited_by uuid,
                     expires_at timestamptz, accepted_at timestamptz, created_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select i.id, i.tenant_id, i.email, i.role, i.token, i.invited_by, i.expires_at, i.accepted_at, i.created_at
        from public.tenant_invites i
        where i.token = p_token;
    end $$`.execute(db);

  for (const signature of lookupSignatures()) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

function lookupSignatures() {
  return [
    sql`${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`,
    sql`${sql.id(LOOKUP_ACTIVE_API_KEY)}(text, text)`,
    sql`${sql.id(LOOKUP_INVITE_BY_TOKEN)}(text)`,
  ];
}

/** Takes the walls down. The role stays: it is cluster-wide and other databases may use it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of lookupSignatures()) await sql`drop function ${signature}`.execute(db);
  for (const [table] of WALLED_TABLES) {
    await sql`drop policy tenant_wall on ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(table)} disable row level security`.execute(db);
    await sql`revoke all on ${sql.table(table)} from ${role}`.execute(db);
  }
  await sql`revoke usage on schema public from ${role}`.execute(db);
}
