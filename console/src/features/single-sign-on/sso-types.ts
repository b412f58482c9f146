/** The single sign-on screen's shapes, as the API reference documents them. */
import type { Role, Schemas } from '../../api/client';

export type SsoRole = Exclude<Role, 'owner'>;

export type SsoConnection = Schemas['SsoConnection'];
export type SsoDomain = Schemas['SsoDomain'];
export type ScimTokenState = Schemas['ScimTokenStatus'];
