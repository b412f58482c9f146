import { NOTES_REQUEST_SHAPES } from '../../examples/notes/adapters/http/request-shapes';
import { IDENTITY_REQUEST_SHAPES } from '../../src/adapters/http/docs/identity-request-shapes';
import type { RequestShapes } from '../../src/adapters/http/docs/request-schemas';

/**
 * Each OpenAPI document of the repository whose request schemas are derived from DTOs, with the
 * DTOs: identity's, and each module's part. `npm run openapi:requests` rewrites them
 * (scripts/openapi/write-request-schemas.ts); test/http/request-schemas.test.ts holds them to it.
 * A module with body or query DTOs adds its line here.
 */
export const REQUEST_DOCUMENTS: readonly { readonly file: string; readonly shapes: RequestShapes }[] = [
  { file: 'docs/openapi.yaml', shapes: IDENTITY_REQUEST_SHAPES },
  { file: 'examples/notes/openapi.yaml', shapes: NOTES_REQUEST_SHAPES },
];
