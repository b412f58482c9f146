/**
 * The layering rule, enforced on every `make test`:
 *   domain       imports nothing outside itself;
 *   application  imports only domain (its ports are the only way out);
 *   adapters     never reach into bootstrap (the composition root depends on them, not the reverse);
 *   src/testing  (the test kit, portcullis/testing) is imported by nothing else in src.
 * And for product modules (examples/<name>/, docs/modules.md):
 *   a module imports only the platform's kits (src/<layer>/.../modules/*-kit.ts), never identity's
 *   internals, and never another module; within itself it keeps the same layers (its domain imports
 *   only its domain and the domain kit, its application only its domain, its application and the
 *   application kit); the platform never imports a module.
 * A module's tests (examples/<name>/test/) may use the repository's test support like any test.
 */
const MODULE = '^examples/([^/]+)/';
const MODULE_TESTS = '^examples/[^/]+/test/';
const KITS = '^src/(domain|application|adapters/http|adapters/persistence|bootstrap)/modules/[a-z-]+-kit[.]ts$';
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
      name: 'modules-use-only-the-platform-kits',
      comment: 'A module depends on the platform\'s narrow surface: the *-kit.ts files in the modules/ folders of src.',
      severity: 'error',
      from: { path: MODULE, pathNot: MODULE_TESTS },
      to: { path: '^src/', pathNot: KITS },
    },
    {
      name: 'modules-do-not-import-each-other',
      severity: 'error',
      from: { path: MODULE, pathNot: MODULE_TESTS },
      to: { path: '^examples/', pathNot: '^examples/$1/' },
    },
    {
      name: 'the-platform-does-not-import-modules',
      comment: 'Modules are added to the composition from outside (main(modules)); src never names one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^examples/' },
    },
    {
      name: 'module-domain-is-pure',
      severity: 'error',
      from: { path: '^examples/([^/]+)/domain/' },
      to: { pathNot: '^(examples/$1/domain/|src/domain/modules/domain-kit\\.ts$)' },
    },
    {
      name: 'module-application-depends-only-on-its-domain',
      severity: 'error',
      from: { path: '^examples/([^/]+)/application/' },
      to: { pathNot: '^(examples/$1/(domain|application)/|src/(domain|application)/modules/[^/]+-kit\\.ts$)' },
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
