import * as vm from 'node:vm';

/**
 * PGlite's CommonJS build loads Node built-ins with dynamic import(). Inside Jest's sandbox that
 * works only when Node runs with --experimental-vm-modules; without it the import rejects outside
 * any promise chain and takes the whole Jest worker down. Checking first turns that into a clear
 * failure of one test file. (Plain Node, e.g. the service from dist/, needs no flag.)
 */
export function assertPgliteCanLoadInJest(): void {
  if (typeof (vm as { SyntheticModule?: unknown }).SyntheticModule !== 'function') {
    throw new Error(
      'PGlite needs Jest to run under Node with --experimental-vm-modules ' +
        '(e.g. NODE_OPTIONS=--experimental-vm-modules npx jest)',
    );
  }
}
