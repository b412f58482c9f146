// A folder of this Jest run's own for what its test files make once and share (the migrated
// embedded database, test/support/pglite.ts), removed when the run ends.
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function setup() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'portcullis-jest-'));
  process.env.PORTCULLIS_PGLITE_SNAPSHOTS = folder;
  globalThis.portcullisJestFolder = folder;
};
