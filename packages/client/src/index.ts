export { portcullis, type PortcullisMiddleware, type PortcullisOptions } from './middleware';
export { requireRole } from './require-role';
export { MFA_REQUIRED_ERROR, requireMfa } from './require-mfa';
export { principalOf, principalIfAny, type Principal } from './principal';
export type { Role } from './roles';
export { PortcullisUnavailable, SERVICE_KEY_HEADER } from './introspection-client';
export type { CredentialChange } from './change-feed';
