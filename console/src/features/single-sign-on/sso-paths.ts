/**
 * The single sign-on routes as agreed for the API reference, typed here until docs/openapi.yaml has
 * them: added to the generated `paths`, so the console calls them through the same typed client.
 * Once the reference documents them, the generated declarations replace this file.
 */
import type { Role } from '../../api/client';

export type SsoRole = Exclude<Role, 'owner'>;

export interface SsoConnection {
  readonly issuer: string;
  readonly client_id: string;
  readonly default_role: SsoRole;
  readonly sso_required: boolean;
  readonly group_roles: Readonly<Record<string, SsoRole>>;
  readonly redirect_uri: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface SsoConnectionRequest {
  issuer: string;
  client_id: string;
  client_secret: string;
  default_role?: SsoRole;
  sso_required?: boolean;
  group_roles?: Record<string, SsoRole>;
}

export interface SsoDomain {
  readonly domain: string;
  readonly txt_name: string;
  readonly txt_value: string;
  readonly verified: boolean;
  readonly verified_at: string | null;
}

export interface ScimTokenState {
  readonly exists: boolean;
  readonly created_at: string | null;
  readonly last_used_at: string | null;
}

export interface SsoTokenAnswer {
  readonly token: string;
  readonly expires_in: string;
}

interface Json<T> {
  content: { 'application/json': T };
}
interface NoContent {
  content?: never;
}
interface Params<Query = never, Path = never> {
  parameters: { query?: Query; header?: never; path: Path; cookie?: never };
}
type Operation<Responses, Body = never, Query = never, Path = never> = Params<Query, Path> & {
  requestBody?: [Body] extends [never] ? never : Json<Body>;
  responses: Responses;
};
interface Methods {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}
/** A path with the given operations, and none of the other methods (as the generated paths have them). */
type Route<Operations> = Omit<Methods, keyof Operations> & Operations;

declare module '../../api/schema' {
  interface paths {
    '/api/v1/auth/sso/connection': Route<{
      get: Operation<{ 200: Json<SsoConnection> }>;
      put: Operation<{ 200: Json<SsoConnection> }, SsoConnectionRequest>;
      delete: Operation<{ 204: NoContent }>;
    }>;
    '/api/v1/auth/sso/domains': Route<{
      get: Operation<{ 200: Json<{ domains: SsoDomain[] }> }>;
      post: Operation<{ 200: Json<SsoDomain>; 201: Json<SsoDomain> }, { domain: string }>;
    }>;
    '/api/v1/auth/sso/domains/{domain}/verify': Route<{
      post: Operation<{ 200: Json<SsoDomain> }, never, never, { domain: string }>;
    }>;
    '/api/v1/auth/sso/domains/{domain}': Route<{
      delete: Operation<{ 204: NoContent }, never, never, { domain: string }>;
    }>;
    '/api/v1/auth/sso/scim-token': Route<{
      get: Operation<{ 200: Json<ScimTokenState> }>;
      post: Operation<{ 201: Json<{ token: string; created_at: string }> }>;
      delete: Operation<{ 204: NoContent }>;
    }>;
    '/api/v1/auth/sso/start': Route<{
      get: Operation<{ 200: Json<{ redirect_url: string }> }, never, { email?: string; tenant?: string }>;
    }>;
    '/api/v1/auth/sso/exchange': Route<{
      post: Operation<{ 200: Json<SsoTokenAnswer> }, { code: string }>;
    }>;
  }
}
