// Removes the folder jest-global-setup.js made for this run.
const { rmSync } = require('node:fs');

module.exports = async function teardown() {
  if (globalThis.portcullisJestFolder) rmSync(globalThis.portcullisJestFolder, { recursive: true, force: true });
};
