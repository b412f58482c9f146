/**
 * A CPU profile of the service under one scenario's load, summarised: which packages and functions
 * take the time. The service runs as the benchmark runs it (compiled, through scripts/start.sh,
 * rate limits raised) with `node --cpu-prof`; the .cpuprofile is kept for Chrome DevTools.
 *
 *   npx tsx scripts/bench/profile.ts [me-bearer|me-api-key|invites|login]     (default me-bearer)
 *   PROFILE_SECONDS=8 PROFILE_DIR=/tmp/portcullis-prof DATABASE_URL=… npx tsx scripts/bench/profile.ts invites
 *
 * Without DATABASE_URL the service runs on PGlite in memory.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareRunner, processCpuSeconds, ServerProcess } from './children';
import { formatShares, summariseCpuProfile } from './cpu-profile-summary';
import { runLoad, type LoadSpec } from './load';
import { AUTH_BASE } from './protocol';
import { seed, type Seed } from './scenarios';
import { readSettings } from './settings';

const SCENARIOS: Record<string, (url: string, seeded: Seed) => LoadSpec> = {
  'me-bearer': (url, seeded) => ({ url, path: `${AUTH_BASE}/me`, headers: { authorization: `Bearer ${seeded.token}` }, connections: 10, duration: 0 }),
  'me-api-key': (url, seeded) => {
    let next = 0;
    return {
      url, path: `${AUTH_BASE}/me`, connections: 10, duration: 0,
      setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': seeded.keys[next++ % seeded.keys.length]! } }),
    };
  },
  invites: (url, seeded) => ({ url, path: `${AUTH_BASE}/invites`, headers: { authorization: `Bearer ${seeded.token}` }, connections: 10, duration: 0 }),
  login: (url, seeded) => ({
    url, path: `${AUTH_BASE}/login`, method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: seeded.ownerEmail, password: seeded.ownerPassword }), connections: 8, duration: 0,
  }),
};

async function main(): Promise<void> {
  const scenario = process.argv[2] ?? 'me-bearer';
  const specFor = SCENARIOS[scenario];
  if (!specFor) throw new Error(`unknown scenario ${scenario}; one of ${Object.keys(SCENARIOS).join(', ')}`);
  const seconds = Number(process.env['PROFILE_SECONDS'] ?? 8);
  const dir = process.env['PROFILE_DIR'] ?? mkdtempSync(join(tmpdir(), 'portcullis-prof-'));
  // Seeding is profiled too: keep it small unless the scenario needs the keys.
  const settings = { ...readSettings(), apiKeys: scenario === 'me-api-key' ? 200 : 1, freshKeys: 1, invites: 20 };

  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];
  const runner = prepareRunner('compiled');
  const service = await ServerProcess.start('service', runner, 'service-server', env, {
    launcher: 'production', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  });
  try {
    const seeded = await seed(service, settings);
    const spec = specFor(service.url, seeded);
    await runLoad({ ...spec, duration: 2 });
    const cpuBefore = processCpuSeconds(service.pid);
    const load = await runLoad({ ...spec, duration: seconds });
    const cpuMs = (processCpuSeconds(service.pid) - cpuBefore) * 1000;
    console.log(`profile: ${scenario}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, service CPU ${((cpuMs * 1000) / (load.ok + load.non2xx)).toFixed(0)} µs/req, statuses ${JSON.stringify(load.statusCounts)}`);
  } finally {
    await service.stop();
  }
  const file = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort().pop();
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const summary = summariseCpuProfile(join(dir, file));
  console.log(`\nprofile: ${join(dir, file)} (setup and warm-up included)\n\nSelf time by package:\n${formatShares(summary.byPackage)}\n\nSelf time by function:\n${formatShares(summary.byFunction)}`);
}

main().catch((error: unknown) => {
  console.error('profile failed:', error);
  process.exit(1);
});
