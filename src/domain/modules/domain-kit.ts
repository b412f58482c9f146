/**
 * The domain a product module may build on, and nothing more: who the caller is, the role ladder,
 * the base of every rule-breaking error, ids, the visible-text rule for names people read. A module's own domain imports only this file (and
 * its own files); the layering rule (.dependency-cruiser.js) refuses the rest of src/domain.
 */
export { DomainError, type ErrorCodesOf } from '../errors';
export type { Principal } from '../principal';
export { assertRoleAtLeast, isRole, type Role, ROLES } from '../role';
export { isUuid } from '../ids';
export type { AuditDetails, AuditEvent, ModuleAuditAction } from '../audit-event';
export { hiddenCharacterIn, normalizeVisibleText } from '../visible-text';
