import { type Kysely, sql } from 'kysely';

// A tenant's second-factor policy: `optional` (every tenant so far) or `required`. A column of the
// tenants table, behind its wall; the service's role already updates tenant rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tenants add column mfa_policy text not null default 'optional'
      constraint tenants_mfa_policy_check check (mfa_policy in ('optional', 'required'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column mfa_policy`.execute(db);
}
