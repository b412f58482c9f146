import type { components } from './schema';

/**
 * Two routes another branch adds to the API (docs/openapi.yaml) at the same time as these screens:
 * the passkey as the second step of a password sign-in, and the tenant's second-factor policy. Until
 * the reference has them, their shapes are declared here, merged into the generated `paths`; once it
 * has them the type check fails on this file (a property declared twice), and it is deleted.
 */
export type MfaPolicy = 'optional' | 'required';

export interface TenantSecurity {
  readonly mfa: MfaPolicy;
  /** The members who have no second factor yet: under `required` they may only enrol. */
  readonly members_without_factor: ReadonlyArray<{ readonly id: string; readonly email: string; readonly role: components['schemas']['Role'] }>;
}

type Json<T> = { content: { 'application/json': T } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };

declare module './schema' {
  interface paths {
    '/api/v1/auth/tenant/security': {
      parameters: NoParameters;
      get: { parameters: NoParameters; requestBody?: never; responses: { 200: Json<TenantSecurity> } };
      patch: { parameters: NoParameters; requestBody: Json<{ mfa: MfaPolicy }>; responses: { 200: Json<TenantSecurity> } };
      post?: never;
      delete?: never;
    };
    '/api/v1/auth/login/mfa/passkey/options': {
      parameters: NoParameters;
      post: { parameters: NoParameters; requestBody: Json<{ mfa_token: string }>; responses: { 200: Json<components['schemas']['WebAuthnOptions']> } };
      get?: never;
      patch?: never;
      delete?: never;
    };
  }
}
