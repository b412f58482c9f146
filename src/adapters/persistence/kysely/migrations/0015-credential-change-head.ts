import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';
import { CHANGE_HEAD_TABLE } from './0010-credential-change-log';

// The change log's head alone, for the freshness check every credential check makes on Postgres
// (shared-freshness-check.ts): one statement per round, which must stay cheap. Reading it through
// migration 0010's function costs a proof check (four SHA-256s in PL/pgSQL) and a query of the log
// on every round; the head is a count of committed changes and names no member, key or tenant, so
// it needs no proof. A plain SQL function, owned by the schema's owner, granted to the app role
// only: the head table itself stays ungranted.

/** (): the position of the latest committed credential change (0 before any). App role only. */
export const READ_CHANGE_HEAD = 'credential_change_head_position';

const role = sql.id(APP_ROLE);
const fn = sql.id(READ_CHANGE_HEAD);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${fn}() returns bigint
      language sql stable security definer
      set search_path = pg_catalog, pg_temp
    as $$ select h.position from public.${sql.id(CHANGE_HEAD_TABLE)} h $$`.execute(db);
  await sql`revoke all on function ${fn}() from public`.execute(db);
  await sql`grant execute on function ${fn}() to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${fn}()`.execute(db);
}
