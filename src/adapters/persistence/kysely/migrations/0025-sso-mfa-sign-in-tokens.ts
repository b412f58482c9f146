import { type Kysely, sql } from 'kysely';

// email_tokens may hold an `sso_mfa_sign_in` token: the mfa_token of a sign-in the tenant's identity
// provider began, when the tenant asks for the member's own second factor after it. POST /login/mfa
// takes it as it takes a password's, and the session then records `sso`, not a password, as the
// first factor.

const PURPOSES_BEFORE = ['password_reset', 'email_verify', 'email_change', 'mfa_sign_in', 'sso_handoff'];
const PURPOSES = [...PURPOSES_BEFORE, 'sso_mfa_sign_in'];

async function purposeCheck(db: Kysely<unknown>, purposes: readonly string[]): Promise<void> {
  await sql`alter table email_tokens drop constraint email_tokens_purpose_check`.execute(db);
  await sql`alter table email_tokens add constraint email_tokens_purpose_check check (purpose in (${sql.join(purposes.map((p) => sql.lit(p)))}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await purposeCheck(db, PURPOSES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from email_tokens where purpose = 'sso_mfa_sign_in'`.execute(db);
  await purposeCheck(db, PURPOSES_BEFORE);
}
