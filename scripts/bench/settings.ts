import { cpus, freemem, loadavg, release, totalmem, type, availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type DatabaseMode = 'postgres' | 'embedded';

export interface Settings {
  /** BENCH_QUICK=1: a short run to check that everything works; its figures are not for comparison. */
  readonly quick: boolean;
  /** Repetitions of each measured run (baseline and service alternate: B S B S ...). */
  readonly reps: number;
  /** Seconds per measured run. */
  readonly duration: number;
  /** Seconds of warm-up for each process before each scenario's repetitions. */
  readonly warmup: number;
  /** autocannon connections for the throughput scenarios. */
  readonly connections: number;
  /** Concurrent logins / sign-ups (scrypt runs on libuv's pool, so more only queue). */
  readonly loginConnections: number;
  /** API keys rotated through in the API-key scenario (the issue asks for at least 1000). */
  readonly apiKeys: number;
  /** Further keys that are never used before the first-use timing. */
  readonly freshKeys: number;
  /** Pending invites in the owner's tenant, for GET /invites. */
  readonly invites: number;
  /** Known/unknown e-mail login pairs, timed one request at a time. */
  readonly timingPairs: number;
  /** Requests per second of the /healthz probe beside the login and sign-up load. */
  readonly probeRate: number;
  readonly runner: 'compiled' | 'tsx';
  /** The Markdown report, relative to the project root. */
  readonly out: string;
}

function intFromEnv(name: string, fallback: number, minimum: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < minimum) throw new Error(`${name} must be a number of at least ${minimum}, not ${raw}`);
  return value;
}

/** Where a quick run writes unless BENCH_OUT says otherwise: never over the real figures. */
export const QUICK_OUT = join('node_modules', '.cache', 'portcullis-bench', 'benchmarks-quick.md');

/**
 * The full run is the default. BENCH_QUICK=1 changes only the defaults (any BENCH_* set still
 * wins): one repetition of 2 s after 1 s of warm-up, 100 keys, 10 timing pairs, about a minute
 * per database instead of five, written to QUICK_OUT.
 */
export function readSettings(): Settings {
  const runner = process.env['BENCH_RUNNER'] ?? 'compiled';
  if (runner !== 'compiled' && runner !== 'tsx') throw new Error(`BENCH_RUNNER must be compiled or tsx, not ${runner}`);
  const quickRaw = process.env['BENCH_QUICK'] ?? '';
  if (!['', '0', '1'].includes(quickRaw)) throw new Error(`BENCH_QUICK must be 1 or 0, not ${quickRaw}`);
  const quick = quickRaw === '1';
  const pick = (full: number, reduced: number): number => (quick ? reduced : full);
  return {
    quick,
    reps: intFromEnv('BENCH_REPS', pick(3, 1), 1),
    duration: intFromEnv('BENCH_DURATION', pick(10, 2), 1),
    warmup: intFromEnv('BENCH_WARMUP', pick(3, 1), 1),
    connections: intFromEnv('BENCH_CONNECTIONS', 10, 1),
    loginConnections: intFromEnv('BENCH_LOGIN_CONNECTIONS', 8, 1),
    apiKeys: intFromEnv('BENCH_API_KEYS', pick(1000, 100), 1),
    freshKeys: intFromEnv('BENCH_FRESH_KEYS', pick(200, 20), 1),
    invites: intFromEnv('BENCH_INVITES', 20, 1),
    timingPairs: intFromEnv('BENCH_TIMING_PAIRS', pick(40, 10), 1),
    probeRate: intFromEnv('BENCH_PROBE_RATE', 20, 1),
    runner,
    out: process.env['BENCH_OUT'] ?? (quick ? QUICK_OUT : join('docs', 'benchmarks.md')),
  };
}

/** Which databases to run on: BENCH_MODE=postgres|embedded|both, or Postgres exactly when DATABASE_URL is set. */
export function readModes(): DatabaseMode[] {
  const mode = process.env['BENCH_MODE'] ?? 'auto';
  const hasUrl = Boolean(process.env['DATABASE_URL']);
  const needUrl = (): void => {
    if (!hasUrl) throw new Error(`BENCH_MODE=${mode} needs DATABASE_URL`);
  };
  switch (mode) {
    case 'auto': return [hasUrl ? 'postgres' : 'embedded'];
    case 'postgres': needUrl(); return ['postgres'];
    case 'embedded': return ['embedded'];
    case 'both': needUrl(); return ['postgres', 'embedded'];
    default: throw new Error(`BENCH_MODE must be auto, postgres, embedded or both, not ${mode}`);
  }
}

export interface Machine {
  readonly cores: number;
  readonly cpuModel: string;
  readonly totalMemoryGiB: number;
  readonly freeMemoryGiB: number;
  readonly node: string;
  readonly os: string;
}

export function describeMachine(): Machine {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) cpuModel = match[1].trim();
  } catch {
    // not Linux: os.cpus() said enough
  }
  return {
    cores: availableParallelism(), // what `nproc` prints: the CPUs this process may run on
    cpuModel,
    totalMemoryGiB: totalmem() / 2 ** 30,
    freeMemoryGiB: freemem() / 2 ** 30,
    node: process.version,
    os: `${type()} ${release()}`,
  };
}

export function loadAverage(): readonly [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return [one, five, fifteen];
}

/** The password in a URL replaced, so the report never carries one. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The command as typed, as far as it can be told: npm or make, and the settings from the environment. */
export function describeCommand(): string {
  const env = Object.keys(process.env)
    .filter((name) => name.startsWith('BENCH_') || name === 'DATABASE_URL' || name === 'UV_THREADPOOL_SIZE')
    .sort()
    .map((name) => `${name}=${name === 'DATABASE_URL' ? redactUrl(process.env[name] ?? '') : process.env[name]}`);
  const base = process.env['MAKELEVEL'] ? 'make bench' : process.env['npm_lifecycle_event'] === 'bench' ? 'npm run bench' : 'npx tsx scripts/bench/run.ts';
  return [...env, base].join(' ');
}

