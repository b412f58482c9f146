import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial';
import * as tenantWalls from './0002-tenant-walls';
import * as keyAndMemberLifecycle from './0003-key-and-member-lifecycle';
import * as auditEvents from './0004-audit-events';
import * as changeTriggersAndRecordTenant from './0005-change-triggers-and-record-tenant';
import * as leastPrivilege from './0006-least-privilege';
import * as serviceKeys from './0007-service-keys';
import * as credentialCheckStatements from './0008-credential-check-statements';
import * as tenantWallProofs from './0009-tenant-wall-proofs';
import * as credentialChangeLog from './0010-credential-change-log';
import * as moduleReadinessAndAuditActionIndex from './0011-module-readiness-and-audit-action-index';
import * as tenantListReads from './0012-tenant-list-reads';
import * as emailTokensAndOutbox from './0013-email-tokens-and-outbox';
import * as sessions from './0014-sessions';
import * as credentialChangeHead from './0015-credential-change-head';
import * as signingKeyRecords from './0016-signing-key-records';
import * as changeHeadReadable from './0017-change-head-readable';
import * as authenticatorAppsRecoveryCodesAndSessionAmr from './0018-authenticator-apps-recovery-codes-and-session-amr';
import * as passkeys from './0019-passkeys';
import * as tenantMfaPolicy from './0020-tenant-mfa-policy';
import * as sealedSecretsExist from './0021-sealed-secrets-exist';
import * as singleSignOn from './0022-single-sign-on';
import * as memberSuspensionAndScimTokens from './0023-member-suspension-and-scim-tokens';
import * as tenantBySlug from './0024-tenant-by-slug';
import * as ssoMfaSignInTokens from './0025-sso-mfa-sign-in-tokens';
import * as bulkChangeLogging from './0026-bulk-change-logging';

/**
 * Every migration, imported statically rather than found on disk (FileMigrationProvider), so the
 * same list works from compiled dist/ and under ts-jest. The Migrator applies them in key order.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001-initial': initial,
  '0002-tenant-walls': tenantWalls,
  '0003-key-and-member-lifecycle': keyAndMemberLifecycle,
  '0004-audit-events': auditEvents,
  '0005-change-triggers-and-record-tenant': changeTriggersAndRecordTenant,
  '0006-least-privilege': leastPrivilege,
  '0007-service-keys': serviceKeys,
  '0008-credential-check-statements': credentialCheckStatements,
  '0009-tenant-wall-proofs': tenantWallProofs,
  '0010-credential-change-log': credentialChangeLog,
  '0011-module-readiness-and-audit-action-index': moduleReadinessAndAuditActionIndex,
  '0012-tenant-list-reads': tenantListReads,
  '0013-email-tokens-and-outbox': emailTokensAndOutbox,
  '0014-sessions': sessions,
  '0015-credential-change-head': credentialChangeHead,
  '0016-signing-key-records': signingKeyRecords,
  '0017-change-head-readable': changeHeadReadable,
  '0018-authenticator-apps-recovery-codes-and-session-amr': authenticatorAppsRecoveryCodesAndSessionAmr,
  '0019-passkeys': passkeys,
  '0020-tenant-mfa-policy': tenantMfaPolicy,
  '0021-sealed-secrets-exist': sealedSecretsExist,
  '0022-single-sign-on': singleSignOn,
  '0023-member-suspension-and-scim-tokens': memberSuspensionAndScimTokens,
  '0024-tenant-by-slug': tenantBySlug,
  '0025-sso-mfa-sign-in-tokens': ssoMfaSignInTokens,
  '0026-bulk-change-logging': bulkChangeLogging,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => ({ ...migrations }),
};
