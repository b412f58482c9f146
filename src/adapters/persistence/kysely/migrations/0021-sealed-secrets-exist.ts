import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Whether any authenticator app is stored, in any tenant: the service asks at start, in production,
// so that an instance without MFA_ENCRYPTION_KEY refuses to start once secrets sealed with it exist
// rather than serving members whose second factor it cannot check. The answer is one boolean: it
// crosses the tenant walls as the owner and tells nothing of whose.

export const TOTP_FACTORS_EXIST = 'totp_factors_exist';

const role = sql.id(APP_ROLE);
const signature = () => sql`${sql.id(TOTP_FACTORS_EXIST)}()`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${signature()} returns boolean
      language sql stable security definer
      set search_path = public, pg_temp
    as $$ select exists (select from public.totp_factors) $$`.execute(db);
  // Functions are executable by PUBLIC by default; this one must not be.
  await sql`revoke all on function ${signature()} from public`.execute(db);
  await sql`grant execute on function ${signature()} to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${signature()}`.execute(db);
}
