import { noteRoutes, type NoteUseCases } from '../../examples/notes/adapters/http/note-routes';
import { NOTES_REQUEST_SHAPES } from '../../examples/notes/adapters/http/request-shapes';
import type { UseCases } from '../../src/application/use-cases';
import { IDENTITY_REQUEST_SHAPES } from '../../src/adapters/http/docs/identity-request-shapes';
import type { RequestShapes } from '../../src/adapters/http/docs/request-schemas';
import { emailRoutes } from '../../src/adapters/http/routes/email-routes';
import { identityRoutes } from '../../src/adapters/http/routes/identity-routes';
import { ssoSignInRoutes } from '../../src/adapters/http/routes/sso-sign-in-routes';
import type { Route } from '../../src/adapters/http/routes/route';
import { DEFAULT_CHANGE_STREAM_LIMITS } from '../../src/adapters/http/verifiers/change-stream';
import { verifierRoutes } from '../../src/adapters/http/verifiers/verifier-routes';

export interface RequestDocument {
  /** The OpenAPI document, relative to the repository. */
  readonly file: string;
  /** Which DTO each of its request schemas and query parameter lists is derived from. */
  readonly shapes: RequestShapes;
  /** The routes it documents, as declared (built over stand-in use-cases: only their DTOs are read). */
  readonly routes: () => readonly Route[];
}

/**
 * Each OpenAPI document of the repository whose request schemas are derived from DTOs, with the
 * DTOs: identity's, and each module's part. `npm run openapi:requests` rewrites them
 * (scripts/openapi/write-request-schemas.ts); test/http/request-schemas.test.ts holds them, and
 * the routes' DTOs, to it. A module with body or query DTOs adds its line here.
 */
export const REQUEST_DOCUMENTS: readonly RequestDocument[] = [
  {
    file: 'docs/openapi.yaml',
    shapes: IDENTITY_REQUEST_SHAPES,
    routes: () => [
      ...identityRoutes({} as UseCases),
      ...emailRoutes({} as UseCases),
      ...ssoSignInRoutes({} as UseCases),
      ...verifierRoutes({} as UseCases, { heartbeatMs: 1000, changeStreamLimits: DEFAULT_CHANGE_STREAM_LIMITS }),
    ],
  },
  { file: 'examples/notes/openapi.yaml', shapes: NOTES_REQUEST_SHAPES, routes: () => noteRoutes({} as NoteUseCases) },
];
