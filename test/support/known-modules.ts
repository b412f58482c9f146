import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { notesModule } from '../../examples/notes/notes-module';

/**
 * The product modules of this repository. Tests check every answer against identity's API
 * reference merged with these modules' parts (openapi-validator.ts), and `npm run lint:openapi`
 * lints that merged document (scripts/openapi/write-merged-reference.ts). A new module is added here.
 */
export const KNOWN_MODULES: readonly PortcullisModule[] = [notesModule];
