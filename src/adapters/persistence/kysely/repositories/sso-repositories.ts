import { type Selectable, sql } from 'kysely';
import type {
  SsoConnectionRepository, SsoDomainRepository, SsoIdentityRepository, SsoSignInRepository,
} from '../../../../application/ports/sso-repositories';
import { SsoDomainTaken } from '../../../../domain/errors';
import { isUuid } from '../../../../domain/ids';
import { INVITABLE_ROLES, type InvitableRole } from '../../../../domain/role';
import type { SsoConnection, SsoDomain, SsoIdentity, SsoSignIn } from '../../../../domain/sso';
import { isUniqueViolation } from '../driver/pg-errors';
import type { TenantScope } from '../driver/tenant-scope';
import { LOOKUP_SSO_DOMAIN_OWNER, SSO_DOMAINS_VERIFIED_UNIQUE } from '../migrations/0022-single-sign-on';
import type { SsoConnectionsTable, SsoDomainsTable, SsoSignInsTable } from '../schema';

function storedRole(value: string): InvitableRole {
  if (!(INVITABLE_ROLES as readonly string[]).includes(value)) throw new Error(`sso_connections holds an unknown role: ${value}`);
  return value as InvitableRole;
}

function toConnection(row: Selectable<SsoConnectionsTable>): SsoConnection {
  const groups = JSON.parse(row.group_roles) as Record<string, string>;
  return {
    tenantId: row.tenant_id, issuer: row.issuer, clientId: row.client_id, clientSecretSealed: row.client_secret_sealed,
    defaultRole: storedRole(row.default_role), ssoRequired: row.sso_required,
    groupRoles: Object.fromEntries(Object.entries(groups).map(([group, role]) => [group, storedRole(role)])),
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

function toDomain(row: Selectable<SsoDomainsTable>): SsoDomain {
  return { domain: row.domain, tenantId: row.tenant_id, txtValue: row.txt_value, verifiedAt: row.verified_at, createdAt: row.created_at };
}

function toSignIn(row: Selectable<SsoSignInsTable>): SsoSignIn {
  return {
    stateHash: row.state_hash, tenantId: row.tenant_id, issuer: row.issuer, nonce: row.nonce, codeVerifier: row.code_verifier,
    createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at,
  };
}

export class KyselySsoConnectionRepository implements SsoConnectionRepository {
  constructor(private readonly scope: TenantScope) {}

  async find(tenantId: string): Promise<SsoConnection | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) => db.selectFrom('sso_connections').selectAll()
      .where('tenant_id', '=', tenantId).executeTakeFirst());
    return row ? toConnection(row) : null;
  }

  /** One upsert: a replaced connection keeps its created_at. */
  async save(connection: SsoConnection): Promise<void> {
    const values = {
      issuer: connection.issuer, client_id: connection.clientId, client_secret_sealed: connection.clientSecretSealed,
      default_role: connection.defaultRole, sso_required: connection.ssoRequired, group_roles: JSON.stringify(connection.groupRoles),
      updated_at: connection.updatedAt,
    };
    await this.scope.forTenant(connection.tenantId, (db) => db.insertInto('sso_connections')
      .values({ tenant_id: connection.tenantId, created_at: connection.createdAt, ...values })
      .onConflict((conflict) => conflict.column('tenant_id').doUpdateSet(values))
      .execute());
  }

  async remove(tenantId: string): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('sso_connections')
      .where('tenant_id', '=', tenantId).returning('tenant_id').execute());
    return rows.length > 0;
  }
}

export class KyselySsoDomainRepository implements SsoDomainRepository {
  constructor(private readonly scope: TenantScope) {}

  async add(domain: SsoDomain): Promise<boolean> {
    const owner = await this.verifiedOwner(domain.domain);
    if (owner !== null && owner !== domain.tenantId) throw new SsoDomainTaken();
    const rows = await this.scope.forTenant(domain.tenantId, (db) => db.insertInto('sso_domains').values({
      tenant_id: domain.tenantId, domain: domain.domain, txt_value: domain.txtValue, verified_at: domain.verifiedAt, created_at: domain.createdAt,
    }).onConflict((conflict) => conflict.columns(['tenant_id', 'domain']).doNothing()).returning('domain').execute());
    return rows.length > 0;
  }

  async listFor(tenantId: string): Promise<SsoDomain[]> {
    if (!isUuid(tenantId)) return [];
    const rows = await this.scope.forTenant(tenantId, (db) => db.selectFrom('sso_domains').selectAll()
      .where('tenant_id', '=', tenantId).orderBy('domain', 'asc').execute());
    return rows.map(toDomain);
  }

  /**
   * The unique index on verified domains decides between two tenants verifying at once: the second
   * waits for the first to commit, then fails on it. The walls hide the other tenant's row, never the index.
   */
  async markVerified(tenantId: string, domain: string, at: Date): Promise<SsoDomain | null> {
    if (!isUuid(tenantId)) return null;
    const owner = await this.verifiedOwner(domain);
    if (owner !== null && owner !== tenantId) throw new SsoDomainTaken();
    try {
      const row = await this.scope.forTenant(tenantId, (db) => db.updateTable('sso_domains')
        .set({ verified_at: sql`coalesce(verified_at, ${at})` })
        .where('tenant_id', '=', tenantId).where('domain', '=', domain)
        .returningAll().executeTakeFirst());
      return row ? toDomain(row) : null;
    } catch (error) {
      if (isUniqueViolation(error, SSO_DOMAINS_VERIFIED_UNIQUE)) throw new SsoDomainTaken();
      throw error;
    }
  }

  async remove(tenantId: string, domain: string): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('sso_domains')
      .where('tenant_id', '=', tenantId).where('domain', '=', domain).returning('domain').execute());
    return rows.length > 0;
  }

  /** Crosses the tenant walls through the one function that answers an exact domain name (migration 0022). */
  async verifiedOwner(domain: string): Promise<string | null> {
    const { rows } = await sql<{ owner: string | null }>`select ${sql.id(LOOKUP_SSO_DOMAIN_OWNER)}(${domain}) as owner`.execute(this.scope.db);
    return rows[0]?.owner ?? null;
  }
}

export class KyselySsoIdentityRepository implements SsoIdentityRepository {
  constructor(private readonly scope: TenantScope) {}

  async find(tenantId: string, issuer: string, subject: string): Promise<SsoIdentity | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) => db.selectFrom('sso_identities').selectAll()
      .where('tenant_id', '=', tenantId).where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst());
    return row ? {
      tenantId: row.tenant_id, issuer: row.issuer, subject: row.subject, userId: row.user_id,
      createdAt: row.created_at, lastSignInAt: row.last_sign_in_at,
    } : null;
  }

  async create(identity: SsoIdentity): Promise<boolean> {
    const rows = await this.scope.forTenant(identity.tenantId, (db) => db.insertInto('sso_identities').values({
      tenant_id: identity.tenantId, issuer: identity.issuer, subject: identity.subject, user_id: identity.userId,
      created_at: identity.createdAt, last_sign_in_at: identity.lastSignInAt,
    }).onConflict((conflict) => conflict.columns(['tenant_id', 'issuer', 'subject']).doNothing()).returning('subject').execute());
    return rows.length > 0;
  }

  /** Never moves the time back: of two sign-ins recorded out of order, the later stays. */
  async recordSignIn(tenantId: string, issuer: string, subject: string, at: Date): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('sso_identities')
      .set({ last_sign_in_at: sql`greatest(last_sign_in_at, ${at})` })
      .where('tenant_id', '=', tenantId).where('issuer', '=', issuer).where('subject', '=', subject)
      .returning('subject').execute());
    return rows.length > 0;
  }
}

/** Not walled (migration 0022): the callback finds its sign-in by the state's hash alone. */
export class KyselySsoSignInRepository implements SsoSignInRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(signIn: SsoSignIn): Promise<void> {
    await this.scope.db.insertInto('sso_sign_ins').values({
      state_hash: signIn.stateHash, tenant_id: signIn.tenantId, issuer: signIn.issuer, nonce: signIn.nonce,
      code_verifier: signIn.codeVerifier, created_at: signIn.createdAt, expires_at: signIn.expiresAt, used_at: signIn.usedAt,
    }).execute();
  }

  /** One conditional UPDATE: of two concurrent callbacks with one state, the second re-checks after the first commits and matches nothing. */
  async consume(stateHash: string, now: Date): Promise<SsoSignIn | null> {
    const row = await this.scope.db.updateTable('sso_sign_ins').set({ used_at: now })
      .where('state_hash', '=', stateHash).where('used_at', 'is', null).where('expires_at', '>', now)
      .returningAll().executeTakeFirst();
    return row ? toSignIn(row) : null;
  }

  async pruneExpired(before: Date): Promise<number> {
    const result = await this.scope.db.deleteFrom('sso_sign_ins').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
