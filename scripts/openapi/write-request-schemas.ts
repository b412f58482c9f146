/**
 * `npm run openapi:requests`: rewrites the request schemas and query parameters of docs/openapi.yaml
 * (and of each module's part) from the DTOs that validate those requests, leaving the rest of each
 * file as it is. Run it after changing a DTO; test/http/request-schemas.test.ts fails until then.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/adapters/http/docs/openapi-document';
import { REQUEST_DOCUMENTS } from '../../test/support/request-documents';
import { withRequestSchemas } from './request-schemas-yaml';

for (const { file, shapes } of REQUEST_DOCUMENTS) {
  const target = path.join(packageRoot(), file);
  const before = readFileSync(target, 'utf8');
  const after = withRequestSchemas(before, file, shapes);
  if (after === before) {
    console.log(`${file}: up to date`);
    continue;
  }
  writeFileSync(target, after);
  console.log(`${file}: request schemas rewritten from the DTOs`);
}
