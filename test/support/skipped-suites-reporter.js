// @ts-check
/**
 * Ends a run with one line naming the suites that were skipped for want of a server (Postgres,
 * Redis) and how to include them, so a green `make test` on a laptop does not pass for the full run.
 * It reads the titles describeIfAvailable gives a skipped block: "<name> (skipped: <reason>)".
 */
const { relative } = require('node:path');

const SKIPPED = /\(skipped: (.+)\)$/;

class SkippedSuitesReporter {
  /** @param {{ rootDir: string }} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /** @param {unknown} _contexts @param {{ testResults: Array<{ testFilePath: string, testResults: Array<{ ancestorTitles: string[] }> }> }} results */
  onRunComplete(_contexts, results) {
    /** @type {Map<string, Set<string>>} reason -> files */
    const byReason = new Map();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        for (const title of test.ancestorTitles) {
          const match = SKIPPED.exec(title);
          if (!match) continue;
          const reason = match[1];
          if (!byReason.has(reason)) byReason.set(reason, new Set());
          byReason.get(reason)?.add(relative(this.rootDir, file.testFilePath));
        }
      }
    }
    if (byReason.size === 0) return;
    const parts = [...byReason].map(([reason, files]) => `${reason}: ${[...files].sort().join(', ')}`);
    const how = 'to include them, run e.g. `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 make test`'
      + ' (REQUIRE_POSTGRES=1 REQUIRE_REDIS=1 make a missing server fail the run instead)';
    const line = `Skipped suites: ${parts.join('; ')}; ${how}\n`;
    // After Jest's own summary, which its summary reporter prints after every other reporter.
    process.once('exit', () => process.stderr.write(line));
  }
}

module.exports = SkippedSuitesReporter;
