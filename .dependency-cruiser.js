/**
 * The layering rule, enforced on every `make test`:
 *   domain       imports nothing outside itself;
 *   application  imports only domain (its ports are the only way out);
 *   adapters     never reach into bootstrap (the composition root depends on them, not the reverse);
 *   src/testing  (the test kit, portcullis/testing) is imported by nothing else in src;
 *   src/index.ts (the package's main entry, `portcullis`) is imported by nothing in src.
 * And for product modules (modules/<name>/ and examples/<name>/, docs/modules.md):
 *   a module imports the platform only through the package's main entry (`import ... from
 *   'portcullis'`, which resolves to src/index.ts here), exactly as a module in a repository of its
 *   own does, never another module; within itself it keeps the same layers (its domain imports only
 *   its domain, its application only its domain and its application; both may use the entry).
 *   The platform never imports a module.
 * A module's tests (<module>/test/) may use the repository's test support like any test.
 */
const MODULE = '^((?:examples|modules)/[^/]+)/';
const MODULE_TESTS = '^(?:examples|modules)/[^/]+/test/';
const ENTRY = 'src/index[.]ts$';
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain holds plain rules: no frameworks, drivers, node built-ins or other layers.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'application-depends-only-on-domain',
      comment: 'Use-cases talk to the world only through the ports they own in src/application/ports.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: { pathNot: '^src/(application|domain)/' },
    },
    {
      name: 'adapters-do-not-import-bootstrap',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/bootstrap/' },
    },
    {
      name: 'the-service-never-imports-the-test-kit',
      comment: 'src/testing (portcullis/testing) builds a Portcullis for tests, with an insecure password hash: nothing the service runs may reach it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/testing/' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'nothing-in-src-imports-the-package-entry',
      comment: 'src/index.ts is the surface the package offers to modules; the service is wired without it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: `^${ENTRY}` },
    },
    {
      name: 'modules-use-only-the-package-entry',
      comment: 'A module depends on the platform only through `portcullis` (src/index.ts): no deep import into src.',
      severity: 'error',
      from: { path: MODULE, pathNot: MODULE_TESTS },
      to: { path: '^src/', pathNot: `^${ENTRY}` },
    },
    {
      name: 'modules-do-not-import-each-other',
      severity: 'error',
      from: { path: MODULE, pathNot: MODULE_TESTS },
      to: { path: '^(examples|modules)/', pathNot: '^$1/' },
    },
    {
      name: 'the-platform-does-not-import-modules',
      comment: 'Modules are added to the composition from outside (startPortcullis(modules), createTestPortcullis({ modules })); src never names one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(examples|modules)/' },
    },
    {
      name: 'module-domain-is-pure',
      severity: 'error',
      from: { path: `${MODULE}domain/` },
      to: { pathNot: `^($1/domain/|${ENTRY})` },
    },
    {
      name: 'module-application-depends-only-on-its-domain',
      severity: 'error',
      from: { path: `${MODULE}application/` },
      to: { pathNot: `^($1/(domain|application)/|${ENTRY})` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
