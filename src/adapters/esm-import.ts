import { randomUUID } from 'node:crypto';

/**
 * Loads a package published only as ECMAScript modules (openid-client) from this CommonJS build.
 * TypeScript rewrites `import()` into `require()` when it compiles to CommonJS, and the test
 * runner's module registry cannot `require` an ES module; a real dynamic import works in both the
 * service and the tests. Each call compiles a function of its own source: V8 reuses compiled code
 * by source, and a reused function keeps the import handler of the context that compiled it first
 * (under jest, the environment of a test file that has since finished).
 */
export function importEsm<T>(specifier: string): Promise<T> {
  const dynamicImport = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as (specifier: string) => Promise<T>;
  return dynamicImport(specifier);
}
