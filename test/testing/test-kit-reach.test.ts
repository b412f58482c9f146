import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The test kit (portcullis/testing) hashes passwords with one SHA-256. It is published for product
// teams, but nothing the service loads to start may reach it: the layering rule forbids the import
// (`npm run lint`), and this loads the service's entry points with every file of src/testing made to
// throw when required, so a path the rule does not see (a re-export, a require) fails here too.

const TESTING = join(__dirname, '..', '..', 'src', 'testing');

function loadWithTheKitForbidden(entry: string): void {
  jest.isolateModules(() => {
    for (const file of readdirSync(TESTING).filter((name) => name.endsWith('.ts'))) {
      jest.doMock(join(TESTING, file), () => {
        throw new Error(`${entry} reached src/testing/${file}`);
      });
    }
    require(entry);
  });
}

describe('the service never loads the test kit', () => {
  it.each([
    ['npm start', '../../src/bootstrap/main'],
    ['the package\'s main entry, a module\'s whole surface (portcullis)', '../../src/index'],
    ['the notes module itself', '../../examples/notes/notes-module'],
  ])('%s', (_name, entry) => {
    expect(() => loadWithTheKitForbidden(entry)).not.toThrow();
  });

  it('would notice if it did: a file that builds on the kit is caught', () => {
    expect(() => loadWithTheKitForbidden('../support/sql-test-portcullis')).toThrow(/reached src\/testing\//);
  });
});
