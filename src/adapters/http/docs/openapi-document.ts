import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

/**
 * docs/openapi.yaml at the package root. This module sits four folders below the root both as
 * source (src/adapters/http/docs) and as build output (dist/adapters/http/docs), so one relative
 * path serves `npm start`, ts-jest and tsx alike. The document ships as the file itself, beside
 * dist/ like package.json, rather than as a copy in dist/ that could drift from it.
 */
export const OPENAPI_DOCUMENT_PATH = path.resolve(__dirname, '../../../../docs/openapi.yaml');

export type OpenApiDocument = Readonly<Record<string, unknown>>;

let cached: { readonly document: OpenApiDocument; readonly json: string } | undefined;

/** Reads and parses one file; throws, naming the file, when it is missing or not an OpenAPI document. */
export function readOpenApiDocument(file: string): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`The API reference ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const document: unknown = load(text); // YAML 1.2 core schema: plain JSON values, no dates or tags
  if (typeof document !== 'object' || document === null || typeof (document as { openapi?: unknown }).openapi !== 'string') {
    throw new Error(`The API reference ${file} is not an OpenAPI document`);
  }
  return document as OpenApiDocument;
}

function loaded(): { readonly document: OpenApiDocument; readonly json: string } {
  if (!cached) {
    const document = readOpenApiDocument(OPENAPI_DOCUMENT_PATH);
    cached = { document, json: JSON.stringify(document) };
  }
  return cached;
}

/** The document, parsed once per process; the first call (at start-up) fails loudly if it is missing. */
export function openApiDocument(): OpenApiDocument {
  return loaded().document;
}

/** The same document as the JSON text GET /api/v1/openapi.json sends, serialised once. */
export function openApiJson(): string {
  return loaded().json;
}
