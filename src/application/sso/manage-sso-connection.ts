import { SsoConnectionNotFound, SsoIssuerRefused } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast, DEFAULT_INVITE_ROLE, type InvitableRole } from '../../domain/role';
import { groupRolesOf, isAcceptableIssuer, type SsoConnection, ssoSecretContext } from '../../domain/sso';
import { type AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface ManageSsoConnectionDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  /**
   * Only discovery (OidcProviders.discover): the provider is read before anything is stored. Throws
   * SsoDiscoveryFailed when the document cannot be read or names another issuer.
   */
  readonly providers: { discover(issuer: string): Promise<{ readonly issuer: string }> };
  readonly factorSecrets: FactorSecrets;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  /** Where every tenant's provider sends people back (PUBLIC_URL + the callback's path). */
  readonly redirectUri: string;
  /** SSO_ALLOW_HTTP_ISSUER: an http: issuer is accepted (tests, a developer's machine). */
  readonly allowHttpIssuer: boolean;
}

export interface SsoConnectionInput {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly defaultRole?: InvitableRole | undefined;
  readonly ssoRequired?: boolean | undefined;
  /** As the request sent it: checked here (groupRolesOf). */
  readonly groupRoles?: object | undefined;
}

/** A connection as it is answered: never the secret, and with the redirect URI to register at the provider. */
export interface SsoConnectionView {
  readonly connection: Omit<SsoConnection, 'clientSecretSealed'>;
  readonly redirectUri: string;
}

/**
 * A tenant's OpenID Connect connection (owner to change it, admin to read it). Saving reads the
 * provider's discovery document first, outside the unit of work, and stores the issuer as the
 * document states it; the client secret is sealed (FactorSecrets, so without MFA_ENCRYPTION_KEY in
 * production nothing is stored and the answer is 503) and never answered. A save replaces the whole
 * connection, secret included. Each change is audited without the secret.
 */
export class ManageSsoConnection {
  constructor(private readonly deps: ManageSsoConnectionDeps) {}

  async get(caller: Principal): Promise<SsoConnectionView> {
    assertRoleAtLeast(caller.role, 'admin');
    const connection = await this.deps.repos.ssoConnections.find(caller.tenantId);
    if (!connection) throw new SsoConnectionNotFound();
    return this.view(connection);
  }

  async save(caller: Principal, input: SsoConnectionInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<SsoConnectionView> {
    assertRoleAtLeast(caller.role, 'owner');
    this.checkIssuer(input.issuer);
    const groupRoles = groupRolesOf(input.groupRoles ?? {});
    const { unitOfWork, providers, factorSecrets, clock, trail } = this.deps;
    const { issuer } = await providers.discover(input.issuer);
    const clientSecretSealed = factorSecrets.seal(input.clientSecret, ssoSecretContext(caller.tenantId));
    return unitOfWork.run(async (tx) => {
      const before = await tx.ssoConnections.find(caller.tenantId);
      const now = clock.now();
      await tx.ssoConnections.save({
        tenantId: caller.tenantId, issuer, clientId: input.clientId, clientSecretSealed,
        defaultRole: input.defaultRole ?? DEFAULT_INVITE_ROLE, ssoRequired: input.ssoRequired ?? false, groupRoles,
        createdAt: before?.createdAt ?? now, updatedAt: now,
      });
      const saved = await tx.ssoConnections.find(caller.tenantId);
      if (!saved) throw new SsoConnectionNotFound();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'sso.connection_saved', targetId: caller.tenantId,
        details: {
          issuer, client_id: saved.clientId, default_role: saved.defaultRole, sso_required: saved.ssoRequired,
          group_roles: Object.keys(saved.groupRoles).length, replaced: before !== null,
        },
      }));
      return this.view(saved);
    });
  }

  async remove(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'owner');
    const { unitOfWork, trail } = this.deps;
    await unitOfWork.run(async (tx) => {
      const connection = await tx.ssoConnections.find(caller.tenantId);
      if (!connection || !(await tx.ssoConnections.remove(caller.tenantId))) throw new SsoConnectionNotFound();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'sso.connection_removed', targetId: caller.tenantId,
        details: { issuer: connection.issuer, client_id: connection.clientId },
      }));
    });
  }

  private checkIssuer(issuer: string): void {
    if (!isAcceptableIssuer(issuer, this.deps.allowHttpIssuer)) throw new SsoIssuerRefused();
  }

  private view({ clientSecretSealed: _sealed, ...connection }: SsoConnection): SsoConnectionView {
    return { connection, redirectUri: this.deps.redirectUri };
  }
}
