/**
 * `npm run bench` / `make bench`: the service against a bare-Express baseline, on this machine, in
 * one go. See docs/benchmarks.md (which this writes) for the method and the settings.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { prepareRunner, PROJECT_ROOT, ServerProcess, type Runner } from './children';
import { modeTitle, renderMode, writeReport } from './report';
import type { ModeResult } from './results';
import { readGrowthSettings, renderGrowth, runGrowth } from './growth';
import { firstUse, loginTiming, opsScenarios, seed, throughputScenarios } from './scenarios';
import { describeCommand, describeMachine, loadAverage, readModes, readSettings, redactUrl, type DatabaseMode, type Settings } from './settings';

const running = new Set<ServerProcess>();

async function postgresVersion(url: string): Promise<string | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0]?.server_version;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The commit, and how many files under src differ from it: the bench runs the working tree. */
type Source = ModeResult['source'];

function sourceState(): Source {
  const git = (...args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  const status = git('status', '--porcelain', '--', 'src');
  return { commit: git('rev-parse', '--short', 'HEAD') || 'unknown', dirtySrcFiles: status === '' ? 0 : status.split('\n').length };
}

function childEnv(mode: DatabaseMode): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS']; // no loader or inspector from the parent in the measured processes
  if (mode === 'embedded') delete env['DATABASE_URL'];
  return env;
}

async function runMode(mode: DatabaseMode, settings: Settings, runner: Runner, compiledSource: Source): Promise<ModeResult> {
  const startedAt = new Date();
  // Compiled servers run what was compiled at the start; under tsx each start reads the tree anew.
  const source = runner.kind === 'compiled' ? compiledSource : sourceState();
  const loadBefore = loadAverage();
  console.log(`\nbench: ── ${modeTitle(mode)} ──`);

  const service = await ServerProcess.start('service', runner, 'service-server', childEnv(mode), { launcher: 'production' });
  running.add(service);
  const info = await service.info();
  console.log(`bench: service pid ${service.pid} on ${service.url}, storage: ${info.location}, hash ${info.hashScheme}`);

  const seedStarted = Date.now();
  const seeded = await seed(service, settings);
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const baseline = await ServerProcess.start('baseline', runner, 'baseline-server', { ...childEnv(mode), BENCH_ME_BODY: seeded.meBody }, { launcher: 'node' });
  running.add(baseline);
  console.log(`bench: baseline pid ${baseline.pid} on ${baseline.url}`);
  const idleRss = { service: service.rss(), baseline: baseline.rss() };

  const throughput = await throughputScenarios(baseline, service, settings, seeded);
  const baselineInfo = await baseline.info();
  const baselineMemory = baselineInfo.memory;
  const serviceAfterThroughput = (await service.info()).memory;
  const firstUseResult = await firstUse(service, seeded);
  const ops = await opsScenarios(service, settings, seeded);
  const serviceAfterOps = (await service.info()).memory;
  const timing = await loginTiming(service, settings, seeded);
  const { serverErrors } = await service.info();

  await baseline.stop();
  running.delete(baseline);
  await service.stop();
  running.delete(service);

  const url = process.env['DATABASE_URL'];
  return {
    mode,
    database: mode === 'postgres' && url ? `Postgres at ${redactUrl(url)}, pool of 10 (the service's default)` : 'embedded PGlite in memory (PGLITE_DIR=memory://), one connection',
    databaseVersion: mode === 'postgres' && url ? await postgresVersion(url) : undefined,
    machine: describeMachine(),
    settings,
    command: describeCommand(),
    startedAt,
    finishedAt: new Date(),
    loadBefore,
    loadAfter: loadAverage(),
    serviceInfo: info,
    baselineLaunch: baselineInfo.launch,
    seedSeconds,
    idleRss,
    throughput,
    firstUse: firstUseResult,
    ops,
    loginTiming: timing,
    serverErrors,
    memory: { baseline: baselineMemory, serviceAfterThroughput, serviceAfterOps },
    source,
  };
}

async function main(): Promise<void> {
  const settings = readSettings();
  const modes = readModes();
  if (settings.quick) console.warn(`bench: BENCH_QUICK=1: a check that everything runs, written to ${settings.out}; its figures are not for comparison`);
  else {
    if (settings.reps < 3) console.warn(`bench: BENCH_REPS=${settings.reps}: the issue asks for at least 3 repetitions`);
    if (settings.apiKeys < 1000) console.warn(`bench: BENCH_API_KEYS=${settings.apiKeys}: the issue asks for at least 1000`);
  }
  console.log(`bench: modes ${modes.join(', ')}; compiling the servers (${settings.runner})`);
  const source = sourceState();
  const runner = prepareRunner(settings.runner);
  const out = resolve(PROJECT_ROOT, settings.out);
  // BENCH_GROWTH=1 adds the growth scenarios (growth.ts) after the modes; =only runs them alone.
  const growth = process.env['BENCH_GROWTH'] ?? '';
  if (!['', '0', '1', 'only'].includes(growth)) throw new Error(`BENCH_GROWTH must be 1, only or 0, not ${growth}`);
  for (const mode of growth === 'only' ? [] : modes) {
    const result = await runMode(mode, settings, runner, source);
    const section = renderMode(result);
    console.log(`\n${section}`);
    writeReport(out, mode, section);
    console.log(`bench: wrote ${modeTitle(mode)} section of ${settings.out}`);
  }
  if (growth === '1' || growth === 'only') {
    const track = (server: ServerProcess | undefined, started: boolean): void => {
      if (server && started) running.add(server);
      else if (server) running.delete(server);
    };
    const result = await runGrowth(settings, readGrowthSettings(), runner, childEnv('postgres'), source, track);
    const section = renderGrowth(result);
    console.log(`\n${section}`);
    writeReport(out, 'growth', section);
    console.log(`bench: wrote the growth section of ${settings.out}`);
  }
}

async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

main().catch(async (error: unknown) => {
  console.error('bench failed:', error);
  await stopAll();
  process.exit(1);
});
