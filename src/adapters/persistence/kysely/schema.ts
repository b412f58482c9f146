import type { ColumnType, Generated } from 'kysely';
import type { AuditDetails } from '../../../domain/audit-event';

/**
 * The tables as Kysely sees them, in the spec's snake_case names. Columns with a database default
 * (created_at, revoked, role) are still required on insert: the domain objects carry those values,
 * created_at from the application's clock, and the repositories always write them.
 */
export interface DB {
  tenants: TenantsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  tenant_invites: TenantInvitesTable;
  audit_events: AuditEventsTable;
  service_keys: ServiceKeysTable;
  email_tokens: EmailTokensTable;
  mail_outbox: MailOutboxTable;
  sessions: SessionsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  signing_keys: SigningKeysTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  passkey_sign_ins: PasskeySignInsTable;
  sso_connections: SsoConnectionsTable;
  sso_domains: SsoDomainsTable;
  sso_identities: SsoIdentitiesTable;
  sso_sign_ins: SsoSignInsTable;
}

/** A tenant's OpenID Connect connection (migration 0022); group_roles is a JSON object kept as text. */
export interface SsoConnectionsTable {
  tenant_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  default_role: string;
  sso_required: boolean;
  group_roles: string;
  created_at: Date;
  updated_at: Date;
}

export interface SsoDomainsTable {
  tenant_id: string;
  domain: string;
  txt_value: string;
  verified_at: Date | null;
  created_at: Date;
}

export interface SsoIdentitiesTable {
  tenant_id: string;
  issuer: string;
  subject: string;
  user_id: string;
  created_at: Date;
  last_sign_in_at: Date;
}

export interface SsoSignInsTable {
  state_hash: string;
  tenant_id: string;
  issuer: string;
  nonce: string;
  code_verifier: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Members' passkeys (migration 0019); the counter is a bigint, which node-postgres reads as a string. */
export interface PasskeysTable {
  id: string;
  tenant_id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: ColumnType<string | number, number, number>;
  transports: string;
  backed_up: boolean;
  user_handle: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface PasskeyChallengesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  purpose: string;
  attempt_key: string | null;
  challenge: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface PasskeySignInsTable {
  handle_hash: string;
  challenge: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** The configured token signing keys by id and state (migration 0016); never a secret. */
export interface SigningKeysTable {
  key_id: string;
  state: string;
  changed_at: Date;
}

export interface TenantsTable {
  id: string;
  name: string;
  slug: string;
  created_at: Date;
  mfa_policy: Generated<string>;
}

export interface UsersTable {
  id: string;
  tenant_id: string;
  email: string;
  password_hash: string;
  /** Checked by the database against the four roles, so a read can trust it. */
  role: string;
  created_at: Date;
  /** Raised by every change that ends the user's sessions; bearer tokens carry it. Defaults to 0. */
  auth_version: Generated<number>;
  /** Set when the member is removed; such a row is never found by a lookup. */
  removed_at: Date | null;
  /** When the member proved they read their current address (migration 0013). */
  email_verified_at: Generated<Date | null>;
}

export interface EmailTokensTable {
  id: string;
  tenant_id: string;
  user_id: string;
  purpose: string;
  token_hash: string;
  email: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** The app role may only insert (migration 0013); workers go through claim_mail and finish_mail. */
export interface MailOutboxTable {
  id: string;
  tenant_id: string;
  kind: string;
  recipient: string;
  /** jsonb, written as serialised text. */
  input: ColumnType<unknown, unknown, never>;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Date;
  leased_until: Date | null;
  created_at: Date;
  finished_at: Date | null;
  last_error: string | null;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  user_id: string;
  key_prefix: string;
  key_hash: string;
  revoked: boolean;
  created_at: Date;
  name: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

export interface TenantInvitesTable {
  id: string;
  tenant_id: string;
  email: string;
  /** Checked by the database against the three invitable roles. */
  role: string;
  token: string;
  invited_by: string;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: Date;
}

export interface AuditEventsTable {
  id: string;
  tenant_id: string | null;
  actor_user_id: string | null;
  actor_method: string;
  action: string;
  target_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  occurred_at: Date;
  /** jsonb: written as serialised text (see the repository), read back parsed by the driver. */
  details: ColumnType<unknown, AuditDetails, never>;
}

/** Not tenant-scoped: the service's role may only read it (migration 0007). */
export interface ServiceKeysTable {
  id: string;
  name: string;
  key_prefix: string;
  key_hash: string;
  created_at: Date;
  revoked_at: Date | null;
  /** True: the key may ask about every tenant; false: only those in tenant_ids (migration 0010). */
  all_tenants: boolean;
  tenant_ids: string[];
}

export interface SessionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  authenticated_at: Date;
  user_agent: string | null;
  ip: string | null;
  ended_at: Date | null;
  ended_by: string | null;
  end_reason: string | null;
  /** How the session was authenticated (migration 0018); defaults to {pwd}. */
  amr: ColumnType<string[], string[] | undefined, string[]>;
}

export interface TotpFactorsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  secret: string;
  created_at: Date;
  confirmed_at: Date | null;
  /** bigint: read back as a string by pg, as a number by PGlite. */
  last_used_step: ColumnType<string | number | null, number | null, number | null>;
}

export interface RecoveryCodesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  code_hash: string;
  created_at: Date;
  used_at: Date | null;
}
