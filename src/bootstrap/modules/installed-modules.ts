import type { PortcullisModule } from './portcullis-module';

/**
 * The product modules `npm start` serves after identity, in order: one line per module. Identity
 * itself (signup, login, keys, invites, members, the audit trail) is the platform and always first.
 */
export const INSTALLED_MODULES: readonly PortcullisModule[] = [];
