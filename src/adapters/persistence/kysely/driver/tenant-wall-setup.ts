import { type Kysely, sql } from 'kysely';
import { TENANT_WALL_KEYS, WALL_KEY_STATE } from '../migrations/0009-tenant-wall-proofs';
import type { DB } from '../schema';
import { isInsufficientPrivilege } from './pg-errors';
import type { TenantWalls } from './tenant-walls';

/** The service's key is not the database's: refusing to start beats serving empty answers. */
export class TenantWallKeyMismatch extends Error {
  constructor() {
    super(
      "Database: TENANT_WALL_KEY is not the key this database's tenant walls were set up with, so every tenant would read "
        + 'as empty. Start with the key the database was migrated with; to replace it, set the old one as '
        + 'TENANT_WALL_KEY_PREVIOUS and migrate as the owner (docs/operations.md, "The tenant-wall key")',
    );
  }
}

/**
 * As the owner, after migrating: makes sure the service's key is one the walls accept. The first
 * start installs it; later starts find it. A database holding another key takes this one only when
 * `previous` is one it holds (a replacement under way, old and new both accepted until the operator
 * drops the old one); otherwise it is a mismatch, thrown. The table is locked, so instances starting
 * together with different keys cannot both install theirs. Does nothing for a login that may not
 * write the keys (a serving login migrating nothing): the check as the serving login decides then.
 */
export async function installTenantWallKey(owner: Kysely<DB>, walls: TenantWalls, previous?: TenantWalls): Promise<void> {
  const { rows: [access] } = await sql<{ writable: boolean | null }>`
    select has_table_privilege(to_regclass(${`public.${TENANT_WALL_KEYS}`}), 'INSERT') as writable`.execute(owner);
  if (!access?.writable) return;
  await owner.transaction().execute(async (trx) => {
    await sql`lock table ${sql.table(TENANT_WALL_KEYS)} in exclusive mode`.execute(trx);
    const { rows } = await sql<{ inner_pad: Buffer | Uint8Array }>`select inner_pad from ${sql.table(TENANT_WALL_KEYS)}`.execute(trx);
    const held = (key: TenantWalls) => rows.some((row) => Buffer.from(row.inner_pad).equals(key.pads().inner));
    if (held(walls)) return;
    if (rows.length > 0 && !(previous && held(previous))) throw new TenantWallKeyMismatch();
    const { inner, outer } = walls.pads();
    await sql`insert into ${sql.table(TENANT_WALL_KEYS)} (inner_pad, outer_pad) values (${inner}, ${outer})`.execute(trx);
  });
}

/**
 * As the serving login, at start: the database must accept the service's proofs. A key that is not
 * installed yet, or another key, would let the service start and then answer every tenant as empty.
 */
export async function assertTenantWallKey(db: Kysely<DB>, walls: TenantWalls): Promise<void> {
  const { rows: [answer] } = await sql<{ state: string }>`
    select ${sql.id(WALL_KEY_STATE)}(${walls.checkProof()}) as state`.execute(db);
  if (answer?.state === 'installed') return;
  if (answer?.state === 'mismatch') throw new TenantWallKeyMismatch();
  throw new Error('Database: no tenant-wall key is installed yet: migrate as the owner with TENANT_WALL_KEY set '
    + '(npm run migrate, or MIGRATION_DATABASE_URL at start)');
}

/**
 * As the owner: only this database's logins may connect to it. The serving login is granted CONNECT
 * first, and PUBLIC loses it only once that grant is in place, so a running deployment is never
 * locked out. The owner keeps its own right as the database's owner (or a superuser's). A migrating
 * login that may not grant on the database changes nothing; the start-up check then warns in
 * production that every role of the cluster may connect.
 */
export async function restrictConnectTo(owner: Kysely<DB>, servingLogin: string): Promise<void> {
  const { rows: [me] } = await sql<{ login: string; database: string }>`
    select session_user as login, current_database() as database`.execute(owner);
  if (!me || me.login === servingLogin) return;
  const database = sql.id(me.database);
  try {
    await sql`grant connect on database ${database} to ${sql.id(servingLogin)}`.execute(owner);
  } catch (error) {
    if (isInsufficientPrivilege(error) || isUndefinedRole(error)) return;
    throw error;
  }
  const { rows: [granted] } = await sql<{ explicit: boolean }>`
    select exists (
      select from pg_catalog.pg_database d, aclexplode(d.datacl) a
      where d.datname = current_database() and a.privilege_type = 'CONNECT'
        and a.grantee = (select oid from pg_catalog.pg_roles where rolname = ${servingLogin})
    ) as explicit`.execute(owner);
  if (granted?.explicit) await sql`revoke connect on database ${database} from public`.execute(owner);
}

function isUndefinedRole(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42704';
}

/** The login a connection string names, as pg reads it (the URL's user, or `?user=`); undefined when it names none. */
export function loginOf(url: string): string | undefined {
  const parsed = new URL(url);
  const user = parsed.username ? decodeURIComponent(parsed.username) : parsed.searchParams.get('user');
  return user || undefined;
}
