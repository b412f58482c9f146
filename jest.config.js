const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples', '<rootDir>/modules'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // The package's own entries, as a module imports them, are its sources here (tsconfig.json's paths).
  moduleNameMapper: {
    '^portcullis$': '<rootDir>/src/index.ts',
    '^portcullis/testing$': '<rootDir>/src/testing/index.ts',
    '^@portcullis/client$': '<rootDir>/packages/client/src/index.ts',
  },
  setupFiles: ['reflect-metadata'],
  // A folder of the run's own, where the migrated embedded database is made once (test/support/pglite.ts).
  globalSetup: '<rootDir>/test/support/jest-global-setup.js',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.js',
  testTimeout: 30000,
  // Two workers a core: much of a test file's time is spent waiting on Postgres, Redis, a browser
  // or a child process rather than on the CPU. A number, since Jest reads a percentage above 100%
  // as a count of workers.
  maxWorkers: availableParallelism() * 2,
  // The last line of a run names the suites skipped for want of Postgres or Redis, and how to include them.
  reporters: ['default', '<rootDir>/test/support/skipped-suites-reporter.js'],
};
