import type { Repositories } from '../../../../application/ports/repositories';
import { KyselyApiKeyRepository } from './api-key-repository';
import { KyselyAuditEventRepository } from './audit-event-repository';
import { KyselyEmailTokenRepository } from './email-token-repository';
import { KyselyMailOutboxRepository } from './mail-outbox-repository';
import { KyselyInviteRepository } from './invite-repository';
import { KyselySigningKeyRecordRepository } from './signing-key-record-repository';
import { KyselySessionRepository } from './session-repository';
import { KyselyRecoveryCodeRepository, KyselyTotpFactorRepository } from './second-factor-repositories';
import { KyselyTenantRepository } from './tenant-repository';
import { KyselyPasskeyChallengeRepository, KyselyPasskeyRepository } from './passkey-repository';
import {
  KyselySsoConnectionRepository, KyselySsoDomainRepository, KyselySsoIdentityRepository, KyselySsoSignInRepository,
} from './sso-repositories';
import type { TenantScope } from '../driver/tenant-scope';
import { KyselyUserRepository } from './user-repository';

/**
 * The repositories over one scope: the whole database (each tenant-scoped call its own short
 * transaction) or one unit of work's transaction (the tenant setting shared by its calls).
 */
export function kyselyRepositories(scope: TenantScope): Repositories {
  return {
    tenants: new KyselyTenantRepository(scope),
    users: new KyselyUserRepository(scope),
    apiKeys: new KyselyApiKeyRepository(scope),
    invites: new KyselyInviteRepository(scope),
    auditEvents: new KyselyAuditEventRepository(scope),
    emailTokens: new KyselyEmailTokenRepository(scope),
    outbox: new KyselyMailOutboxRepository(scope),
    signingKeys: new KyselySigningKeyRecordRepository(scope),
    sessions: new KyselySessionRepository(scope),
    passkeys: new KyselyPasskeyRepository(scope),
    passkeyChallenges: new KyselyPasskeyChallengeRepository(scope),
    totpFactors: new KyselyTotpFactorRepository(scope),
    recoveryCodes: new KyselyRecoveryCodeRepository(scope),
    ssoConnections: new KyselySsoConnectionRepository(scope),
    ssoDomains: new KyselySsoDomainRepository(scope),
    ssoIdentities: new KyselySsoIdentityRepository(scope),
    ssoSignIns: new KyselySsoSignInRepository(scope),
  };
}
