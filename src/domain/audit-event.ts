/**
 * The audit trail: one immutable record per auth event. Details are small and never hold a secret,
 * a token, a hash or a password: only ids, roles, reasons and counts.
 */
export const AUDIT_ACTIONS = [
  'signup.tenant_created',
  'signup.invite_accepted',
  'login.succeeded',
  'login.failed',
  'api_key.created',
  'api_key.revoked',
  'invite.created',
  'invite.revoked',
  'invite.accepted',
  'member.role_changed',
  'member.removed',
  'password.changed',
  'password.reset_requested',
  'password.reset',
  'email.verified',
  'email.change_requested',
  'email.changed',
  'email.sent',
  'email.failed',
  'email.skipped',
  'invite.resent',
  'access.denied',
  // The platform's, with no tenant: a change of the configured token signing keys (signing-key-state.ts).
  'signing_key.added',
  'signing_key.signing',
  'signing_key.verifying',
  'signing_key.retired',
  'session.started',
  'session.ended',
  // A second factor added or removed; details name the method.
  'mfa.enrolled',
  'mfa.removed',
  'mfa.recovery_codes_regenerated',
  'mfa.recovery_code_used',
  'mfa.failed',
  // A tenant's second-factor policy changed (from, to, and who was signed out by it).
  'tenant.security_changed',
  // A tenant's single sign-on configuration: its provider connection and its domains (never the client secret).
  'sso.connection_saved',
  'sso.connection_removed',
  'sso.domain_added',
  'sso.domain_verified',
  'sso.domain_removed',
  // Single sign-on: a sign-in through the tenant's provider, a refusal (with its reason), and a
  // member the provider's first sign-in created.
  'sso.sign_in',
  'sso.sign_in_refused',
  'sso.member_created',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * A product module's action, `<noun>.<verb>` in lower case (PortcullisModule.auditActions declares
 * them; the composition refuses one that repeats another's). The trail stores and lists them as it
 * does the identity actions above.
 */
export type ModuleAuditAction = `${string}.${string}`;

export const AUDIT_ACTION_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/** Any action of identity or of a module, by its form: what the trail may hold and be filtered by. */
export function isAuditActionName(value: string): value is AuditAction | ModuleAuditAction {
  return AUDIT_ACTION_PATTERN.test(value);
}

/** How the actor proved who they are; `none` for signup, login and refusals before authentication. */
export type AuditActorMethod = 'jwt' | 'api_key' | 'none';

export type AuditDetails = Readonly<Record<string, string | number | boolean | null>>;

export interface AuditEvent {
  readonly id: string;
  /** Null only for a failed login with an e-mail that belongs to no tenant, and for the platform's own events (signing keys). */
  readonly tenantId: string | null;
  readonly actorUserId: string | null;
  readonly actorMethod: AuditActorMethod;
  readonly action: AuditAction | ModuleAuditAction;
  /** The record acted on (user, key, invite, or a module's record), when there is one. */
  readonly targetId: string | null;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
  readonly occurredAt: Date;
  readonly details: AuditDetails;
}

/** Bounds for what a client sends that ends up in the trail, so one request cannot bloat it. */
/** An IPv6 address with a zone, or an IPv4-mapped one, fits well within this. */
export const AUDIT_CLIENT_ADDRESS_MAX = 64;
export const AUDIT_USER_AGENT_MAX = 512;
export const AUDIT_REQUEST_ID_MAX = 128;

export function boundedText(value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}
