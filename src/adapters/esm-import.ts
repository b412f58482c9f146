/**
 * Loads a package published only as ECMAScript modules (openid-client) from this CommonJS build.
 * TypeScript rewrites `import()` into `require()` when it compiles to CommonJS, and the test
 * runner's module registry cannot `require` an ES module; a real dynamic import works in both the
 * service and the tests.
 */
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  return dynamicImport(specifier) as Promise<T>;
}
