/**
 * The application surface a product module's use-cases build on: the ports the platform hands
 * every module (clock, ids, the audit trail, its tenant-scoped unit of work) and the origin of a
 * request for the trail. A module's application layer imports only this file, the domain kit and
 * its own files (.dependency-cruiser.js).
 */
export type { Clock } from '../ports/clock';
export type { IdGenerator } from '../ports/ids';
export { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
export type { TenantTransaction, TenantUnitOfWork } from './tenant-unit-of-work';
