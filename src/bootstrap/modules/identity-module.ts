import { IDENTITY_ERRORS, type IdentityErrorCode } from '../../adapters/http/errors/identity-errors';
import { identityRoutes } from '../../adapters/http/routes/identity-routes';
import { migrations } from '../../adapters/persistence/kysely/migrations';
import type { UseCases } from '../../application/use-cases';
import { AUDIT_ACTIONS } from '../../domain/audit-event';
import type { PortcullisModule } from './portcullis-module';

export const IDENTITY_NAME = 'identity';

/**
 * Identity, declared as every module is (PortcullisModule): its migrations (recorded in Kysely's
 * own tables, which identity's history has always used), its audit actions and its error records.
 * Its API reference is docs/openapi.yaml itself, into which the product modules' parts are merged.
 */
export const IDENTITY = {
  name: IDENTITY_NAME,
  migrations,
  auditActions: AUDIT_ACTIONS,
  errors: IDENTITY_ERRORS,
} as const satisfies Omit<PortcullisModule<IdentityErrorCode>, 'build'>;

/** Identity, the first module, over its use-cases (built by assemble before any module). */
export function identityModule(useCases: UseCases): PortcullisModule<IdentityErrorCode> {
  return { ...IDENTITY, build: () => identityRoutes(useCases) };
}
