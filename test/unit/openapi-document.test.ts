import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OPENAPI_DOCUMENT_PATH, openApiDocument, openApiJson, readOpenApiDocument } from '../../src/adapters/http/docs/openapi-document';

describe('the API reference loader', () => {
  it('finds docs/openapi.yaml at the package root and reads it as plain JSON values', () => {
    expect(path.relative(process.cwd(), OPENAPI_DOCUMENT_PATH)).toBe(path.join('docs', 'openapi.yaml'));
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(JSON.parse(openApiJson())).toEqual(document);
  });

  it('refuses a missing file, naming it, so that the service does not start without its reference', () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'portcullis-')), 'openapi.yaml');
    expect(() => readOpenApiDocument(missing)).toThrow(`The API reference ${missing} cannot be read`);
  });

  it('refuses YAML that is not an OpenAPI document', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'portcullis-')), 'openapi.yaml');
    writeFileSync(file, 'title: not a reference\n');
    expect(() => readOpenApiDocument(file)).toThrow(`The API reference ${file} is not an OpenAPI document`);
  });
});
