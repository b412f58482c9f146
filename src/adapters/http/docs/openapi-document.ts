import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

/**
 * The folder of the package.json nearest above this file: the repository, or the installed
 * package. Found by walking up rather than by a fixed depth, so the same code finds it as source
 * (ts-jest, tsx), as build output in dist/ (`npm start`, a module's entry file) and in an installed
 * package (node_modules/portcullis/dist). docs/openapi.yaml ships as the file itself beside dist/,
 * like package.json, rather than as a copy that could drift from it.
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const OPENAPI_DOCUMENT_PATH = path.join(packageRoot(), 'docs', 'openapi.yaml');

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
