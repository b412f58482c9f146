import { IDENTITY_ERRORS, type IdentityErrorCode } from '../../adapters/http/errors/identity-errors';
import { emailRoutes } from '../../adapters/http/routes/email-routes';
import { identityRoutes } from '../../adapters/http/routes/identity-routes';
import { sessionRoutes } from '../../adapters/http/routes/session-routes';
import { passkeyRoutes } from '../../adapters/http/routes/passkey-routes';
import { ssoSignInRoutes } from '../../adapters/http/routes/sso-sign-in-routes';
import { IDENTITY_MIGRATIONS } from '../../adapters/persistence/modules/module-migrations';
import type { UseCases } from '../../application/use-cases';
import { AUDIT_ACTIONS } from '../../domain/audit-event';
import type { PortcullisModule } from './portcullis-module';
import { secondFactorRoutes } from '../../adapters/http/routes/second-factor-routes';
import { ssoRoutes } from '../../adapters/http/routes/sso-routes';

export const IDENTITY_NAME = IDENTITY_MIGRATIONS.name;

/**
 * Identity, declared as every module is (PortcullisModule): its migrations (applied first, by the
 * same migrateAll as the modules'), its audit actions and its error records.
 * Its API reference is docs/openapi.yaml itself, into which the product modules' parts are merged.
 */
export const IDENTITY = {
  name: IDENTITY_NAME,
  migrations: IDENTITY_MIGRATIONS.migrations,
  auditActions: AUDIT_ACTIONS,
  errors: IDENTITY_ERRORS,
} as const satisfies Omit<PortcullisModule<IdentityErrorCode>, 'build'>;

/** Identity, the first module, over its use-cases (built by assemble before any module). */
export function identityModule(useCases: UseCases): PortcullisModule<IdentityErrorCode> {
  return { ...IDENTITY, build: () => [...identityRoutes(useCases), ...emailRoutes(useCases), ...sessionRoutes(useCases), ...secondFactorRoutes(useCases), ...passkeyRoutes(useCases), ...ssoRoutes(useCases), ...ssoSignInRoutes(useCases)] };
}
