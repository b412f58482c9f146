import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';
import { CHANGE_HEAD_TABLE } from './0010-credential-change-log';

// The app role may read the change log's head row directly. Every protected request on Postgres
// waits for a freshness round that reads it (shared-freshness-check.ts), so the round's statement
// is on the hot path of the two cores Postgres shares with the service: a plain SELECT of one row is
// planned once per connection (a named prepared statement) and costs far less per execution than
// calling migration 0015's security-definer function, which Postgres cannot inline. The head is a
// count of committed changes: it names no member, key or tenant, so reading it needs no proof and
// no tenant wall. SELECT only: the head is still written by the log's triggers alone, and the log
// itself (which does name members and keys) stays ungranted.

/** The statement the freshness round runs: the position of the latest committed credential change. */
export const READ_CHANGE_HEAD_ROW = `select position from ${CHANGE_HEAD_TABLE}`;

const role = sql.id(APP_ROLE);
const head = sql.id(CHANGE_HEAD_TABLE);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`grant select on ${head} to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`revoke select on ${head} from ${role}`.execute(db);
}
