/**
 * The layering rule, enforced on every `make test`:
 *   domain       imports nothing outside itself;
 *   application  imports only domain (its ports are the only way out);
 *   adapters     never reach into bootstrap (the composition root depends on them, not the reverse).
 */
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
