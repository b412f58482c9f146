import { type Kysely, sql } from 'kysely';
import { openPglite, openPostgres, type OpenDatabase, type PostgresOptions } from './dialects';
import { migrations } from '../migrations';
import { APP_ROLE } from '../migrations/0002-tenant-walls';
import { APPLIED_MIGRATIONS } from '../migrations/0006-least-privilege';
import { isInsufficientPrivilege } from './pg-errors';
import type { DB } from '../schema';
import { migrateAll, type ModuleMigrations, pendingModuleMigrations } from '../../modules/module-migrations';
import { DEVELOPMENT_TENANT_WALL_KEY, TenantWalls } from './tenant-walls';
import { assertTenantWallKey, installTenantWallKey, loginOf, restrictConnectTo } from './tenant-wall-setup';

/** The migration that made APPLIED_MIGRATIONS: a schema without the function is older than it. */
const MIGRATION_OF_THE_FUNCTION = '0006-least-privilege';

/** A database the service serves from: migrated, working as the walled app role, with the proofs its walls want. */
export interface ServingDatabase extends OpenDatabase {
  readonly appliedMigrations: string[];
  readonly walls: TenantWalls;
}

/** The key the tenant walls check proofs with (TENANT_WALL_KEY); the development key when unset. */
export interface TenantWallKeys {
  readonly tenantWallKey?: string | undefined;
  /** The key being replaced (TENANT_WALL_KEY_PREVIOUS): a database holding it takes tenantWallKey too. */
  readonly tenantWallKeyPrevious?: string | undefined;
}

export interface ServingPostgresOptions extends Omit<PostgresOptions, 'role'>, TenantWallKeys {
  /**
   * The login that applies migrations (the schema's owner), when the service serves with a login
   * that may not: a member of the app role and nothing more. Unset, `url`'s login migrates.
   */
  readonly migrationUrl?: string | undefined;
  /** Product modules' migrations, applied after identity's (module-migrations.ts). */
  readonly modules?: readonly ModuleMigrations[];
}

/**
 * Migrations need the owner (they create tables, policies and the role); the service must not be
 * the owner, or the row-level security policies would not bind it. So: migrate over a short-lived
 * connection as the migration login, then serve from a pool whose every connection has switched to
 * the app role. The serving login is the owner itself (development, tests) or, in production, a
 * login that is only a member of the app role, for which RESET ROLE gains nothing. When nothing is
 * pending the migrator is not run at all, so a serving login that may not migrate starts on a
 * schema migrated beforehand (`npm run migrate`). The start fails here, not on the first request,
 * when the switch is not allowed or when the database's tenant-wall key is not the service's.
 */
export async function openServingPostgres(url: string, options: ServingPostgresOptions = {}): Promise<ServingDatabase> {
  const { migrationUrl, modules = [], tenantWallKey, tenantWallKeyPrevious, ...poolOptions } = options;
  const walls = new TenantWalls(tenantWallKey ?? DEVELOPMENT_TENANT_WALL_KEY);
  const owner = openPostgres(migrationUrl ?? url, { max: 1, onConnectionError: options.onConnectionError, connectTimeoutMs: options.connectTimeoutMs });
  let appliedMigrations: string[] = [];
  try {
    if ((await pendingMigrations(owner.db, modules)).length > 0) appliedMigrations = await migrateAll(owner.db, modules);
    await prepareForServing(owner.db, walls, { tenantWallKeyPrevious, servingLogin: migrationUrl === undefined ? undefined : loginOf(url) });
  } finally {
    await owner.close();
  }
  const serving = openPostgres(url, { ...poolOptions, role: APP_ROLE });
  try {
    await assertWorksAsAppRole(serving);
    await assertTenantWallKey(serving.db, walls);
  } catch (error) {
    await serving.close();
    throw error;
  }
  return { ...serving, appliedMigrations, walls };
}

/**
 * What the owner does after migrating, at every start and in `npm run migrate`: install the
 * service's tenant-wall key (or find it there), and, given the login the service serves with, let
 * only that login (and the owner) connect to the database.
 */
export async function prepareForServing(
  owner: Kysely<DB>,
  walls: TenantWalls,
  options: { readonly tenantWallKeyPrevious?: string | undefined; readonly servingLogin?: string | undefined } = {},
): Promise<void> {
  const previous = options.tenantWallKeyPrevious === undefined ? undefined : new TenantWalls(options.tenantWallKeyPrevious);
  await installTenantWallKey(owner, walls, previous);
  if (options.servingLogin !== undefined) await restrictConnectTo(owner, options.servingLogin);
}

/** PGlite has one session: migrate in it, then switch that session to the app role for good. */
export async function openServingPglite(
  dataDir: string,
  modules: readonly ModuleMigrations[] = [],
  keys: TenantWallKeys = {},
  from?: Blob,
): Promise<ServingDatabase> {
  const walls = new TenantWalls(keys.tenantWallKey ?? DEVELOPMENT_TENANT_WALL_KEY);
  const opened = await openPglite(dataDir, from);
  try {
    const appliedMigrations = await migrateAll(opened.db, modules);
    await prepareForServing(opened.db, walls, { tenantWallKeyPrevious: keys.tenantWallKeyPrevious });
    await sql`set role ${sql.id(APP_ROLE)}`.execute(opened.db);
    await assertWorksAsAppRole(opened);
    await assertTenantWallKey(opened.db, walls);
    return { ...opened, appliedMigrations, walls };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

async function assertWorksAsAppRole({ db }: OpenDatabase): Promise<void> {
  const { rows } = await sql<{ role: string }>`select current_user as role`.execute(db);
  if (rows[0]?.role !== APP_ROLE) throw new Error(`Database: expected to work as ${APP_ROLE}, not ${rows[0]?.role}`);
}

/**
 * The migrations this build knows that the database has not recorded, identity's and then the
 * modules' (`notes/0002-...`, module-migrations.ts): empty when the schema is
 * current (or newer, during a rolling deploy). For the readiness check, so an instance pointed at a
 * database that is behind (restored from a backup, or not migrated yet) is taken out of rotation,
 * and at start, to skip the migrator when there is nothing to do. Throws StorageUnavailable when
 * the database does not answer.
 *
 * Kysely's table belongs to the owner and the app role may not read it: the security-definer
 * function APPLIED_MIGRATIONS answers the names, for the owner and the app role alike. A schema
 * older than that function is read directly, which only its owner can do; anyone else learns that
 * the function's migration (and all after it) is pending.
 */
export async function pendingMigrations(db: Kysely<DB>, modules: readonly ModuleMigrations[] = []): Promise<string[]> {
  const recorded = new Set(await appliedMigrationNames(db));
  const identity = Object.keys(migrations).filter((name) => !recorded.has(name));
  return [...identity, ...await pendingModuleMigrations(db, modules)];
}

async function appliedMigrationNames(db: Kysely<DB>): Promise<string[]> {
  const found = await sql<{ fn: string | null; table: string | null }>`
    select to_regprocedure(${`${APPLIED_MIGRATIONS}()`})::text as fn, to_regclass('kysely_migration')::text as table`.execute(db);
  const { fn, table } = found.rows[0] ?? { fn: null, table: null };
  if (!table) return [];
  if (fn) {
    const { rows } = await sql<{ name: string }>`select ${sql.id(APPLIED_MIGRATIONS)} as name from ${sql.id(APPLIED_MIGRATIONS)}()`.execute(db);
    return rows.map((row) => row.name);
  }
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.map((row) => row.name);
  } catch (error) {
    if (!isInsufficientPrivilege(error)) throw error;
    return Object.keys(migrations).filter((name) => name < MIGRATION_OF_THE_FUNCTION);
  }
}

/** The tables the service works on, all of which only the owner may alter. */
const SERVICE_TABLES = ['tenants', 'users', 'api_keys', 'tenant_invites', 'audit_events'];

/**
 * What the session's login (not the role it switched to) could do beyond the app role's grants, in
 * words for the start-up log: empty for a login that is only a member of the app role. Any of these
 * but the last lets a statement the service is tricked into running RESET ROLE and leave the tenant
 * walls, or rewrite the schema and the audit trail; the last lets any login of the cluster in (the
 * walls still hold it off, but it need not get that far).
 */
export async function servingLoginRisks(db: Kysely<DB>): Promise<string[]> {
  const { rows: [login] } = await sql<{
    name: string; superuser: boolean; bypass_rls: boolean; owns: string[] | null; can_create: boolean; database: string; anyone_connects: boolean;
  }>`
    select r.rolname as name, r.rolsuper as superuser, r.rolbypassrls as bypass_rls,
           (select array_agg(c.relname::text order by c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relname = any(${SERVICE_TABLES}) and pg_has_role(session_user, c.relowner, 'USAGE')) as owns,
           has_schema_privilege(session_user, 'public', 'CREATE') as can_create,
           current_database() as database,
           has_database_privilege('public', current_database(), 'CONNECT') as anyone_connects
    from pg_roles r where r.rolname = session_user`.execute(db);
  if (!login) return [];
  const risks: string[] = [];
  if (login.superuser) risks.push(`the login ${login.name} is a superuser`);
  if (login.owns?.length) risks.push(`the login ${login.name} owns (or acts as the owner of) ${login.owns.join(', ')}`);
  if (login.bypass_rls && !login.superuser) risks.push(`the login ${login.name} bypasses row-level security`);
  if (login.can_create && !login.superuser) risks.push(`the login ${login.name} may create tables in the public schema`);
  if (login.anyone_connects) risks.push(`every role of the cluster may connect to the database ${login.database} (PUBLIC holds CONNECT)`);
  return risks;
}
