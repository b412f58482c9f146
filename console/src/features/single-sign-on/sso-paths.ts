/**
 * The SCIM token's routes, which the API reference does not document yet, typed here as agreed:
 * added to the generated `paths`, so the console calls them through the same typed client. Once the
 * reference documents them, the generated declarations replace these.
 */
import type { Role, Schemas } from '../../api/client';

export type SsoRole = Exclude<Role, 'owner'>;

export type SsoConnection = Schemas['SsoConnection'];
export type SsoDomain = Schemas['SsoDomain'];

export interface ScimTokenState {
  readonly exists: boolean;
  readonly created_at: string | null;
  readonly last_used_at: string | null;
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
    '/api/v1/auth/sso/scim-token': Route<{
      get: Operation<{ 200: Json<ScimTokenState> }>;
      post: Operation<{ 201: Json<{ token: string; created_at: string }> }>;
      delete: Operation<{ 204: NoContent }>;
    }>;
  }
}
