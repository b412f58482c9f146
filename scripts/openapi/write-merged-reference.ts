/**
 * `npm run lint:openapi`, first step: writes identity's API reference with every module of the
 * repository merged in (what `npm run example:notes` serves) to build/openapi/with-modules.json, so
 * that redocly lints the modules' parts together with identity's, as one document (redocly.yaml).
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/adapters/http/docs/openapi-document';
import { apiReferenceWith } from '../../src/bootstrap/modules/compose-modules';
import { KNOWN_MODULES } from '../../test/support/known-modules';

const target = path.join(packageRoot(), 'build', 'openapi', 'with-modules.json');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(apiReferenceWith(KNOWN_MODULES), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)} (${KNOWN_MODULES.map((module) => module.name).join(', ')})`);
