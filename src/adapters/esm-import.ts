/**
 * Loads a package published only as ECMAScript modules (openid-client) from this CommonJS build.
 * TypeScript rewrites `import()` into `require()` when it compiles to CommonJS, and the test
 * runner's module registry cannot `require` an ES module; a real dynamic import works in both the
 * service and the tests.
 */
// The source differs each time this file is evaluated: V8 reuses a function compiled from the same
// source, and with it the module loader of the context that compiled it first, which under jest is a
// test file's environment that is torn down by the time the next file in the same worker imports.
const dynamicImport = new Function('specifier', `return import(specifier); // ${Math.random()}`) as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  return dynamicImport(specifier) as Promise<T>;
}
