import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { createInterface } from 'node:readline';
import { READY_PREFIX, type ChildInfo, type ChildMessage, type LoopDelay, type ParentMessage } from './protocol';

export const PROJECT_ROOT = join(__dirname, '..', '..');

/**
 * How the two servers are started. `compiled` (the default) compiles src and scripts/bench with the
 * project's tsc into node_modules/.cache/portcullis-bench and runs plain `node`, as production runs
 * dist/: a TypeScript loader in the server process (tsx's hooks thread and esbuild) would add tens
 * of megabytes to the RSS being measured. `tsx` runs `node --import tsx` on the sources instead.
 */
export type Runner = { readonly kind: 'compiled'; readonly dir: string } | { readonly kind: 'tsx' };

export function prepareRunner(kind: string): Runner {
  if (kind === 'tsx') return { kind: 'tsx' };
  if (kind !== 'compiled') throw new Error(`BENCH_RUNNER must be compiled or tsx, not ${kind}`);
  // Inside node_modules so that the compiled files resolve the project's packages by walking up.
  // BENCH_BUILD_DIR puts it elsewhere, for a working tree whose node_modules is shared with other
  // trees that compile their own sources: below a folder that holds a node_modules, a package.json
  // and docs/ (links to the tree's will do), as the compiled service looks for them walking up.
  const chosen = process.env['BENCH_BUILD_DIR'];
  const dir = chosen ? resolve(chosen) : join(PROJECT_ROOT, 'node_modules', '.cache', 'portcullis-bench');
  mkdirSync(dir, { recursive: true });
  const config = {
    extends: join(PROJECT_ROOT, 'tsconfig.json'),
    compilerOptions: { rootDir: PROJECT_ROOT, outDir: dir, noEmit: false, sourceMap: false, incremental: false, types: ['node'] },
    include: [join(PROJECT_ROOT, 'src'), join(PROJECT_ROOT, 'scripts', 'bench')],
  };
  const configPath = join(dir, 'tsconfig.bench.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', configPath], { encoding: 'utf8' });
  if (result.status !== 0) {
    // tsc still emits on type errors: src may be mid-edit by someone else. Say so and go on if it emitted.
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    console.warn(`bench: tsc reported ${lines.length} line(s) of errors; running what it emitted. First lines:\n  ${lines.slice(0, 5).join('\n  ')}`);
  }
  // The service reads its API reference from docs/ four folders above the loader, as from dist/.
  mkdirSync(join(dir, 'docs'), { recursive: true });
  copyFileSync(join(PROJECT_ROOT, 'docs', 'openapi.yaml'), join(dir, 'docs', 'openapi.yaml'));
  for (const name of ['service-server', 'baseline-server']) {
    if (!existsSync(join(dir, 'scripts', 'bench', `${name}.js`))) throw new Error(`bench: tsc did not emit ${name}.js into ${dir}`);
  }
  linkPathMappings(dir);
  return { kind: 'compiled', dir };
}

/**
 * tsc leaves `require('@portcullis/client')` (and `portcullis`, `portcullis/testing`) as written:
 * tsconfig.json's `paths` guide its type checking, not the emitted code. So each mapped name gets a
 * module in the build's own node_modules that loads the compiled file the mapping names, and the
 * compiled downstream example finds the client library as tsx and jest find it.
 */
function linkPathMappings(dir: string): void {
  const read = ts.readConfigFile(join(PROJECT_ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const paths = (read.config as { compilerOptions?: { paths?: Record<string, string[]> } } | undefined)?.compilerOptions?.paths ?? {};
  for (const [name, [target]] of Object.entries(paths)) {
    if (target === undefined) continue;
    const compiled = join(dir, target.replace(/\.ts$/, '.js'));
    const entry = join(dir, 'node_modules', name);
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, 'index.js'), `module.exports = require(${JSON.stringify(compiled)});\n`);
  }
}

function commandFor(runner: Runner, script: string): string[] {
  return runner.kind === 'compiled'
    ? [join(runner.dir, 'scripts', 'bench', `${script}.js`)]
    : ['--import', 'tsx', join(PROJECT_ROOT, 'scripts', 'bench', `${script}.ts`)];
}

/** The production launcher (`npm start`): allocator, thread-pool and V8 settings, then `exec node`. */
export const START_SCRIPT = join(PROJECT_ROOT, 'scripts', 'start.sh');

export interface StartOptions {
  /**
   * `production`: through scripts/start.sh, as `npm start` runs the service (it execs node, so the
   * pid is node's). `node`: plain node with its defaults, as the bare baseline runs.
   */
  readonly launcher: 'production' | 'node';
  /** Extra node options, e.g. --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}

/** RSS of a process in bytes, from /proc (Linux); NaN where there is no /proc. */
export function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Processes this bench started and still runs: their CPU time is not "someone else's". */
const benchPids = new Set<number>();

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every mainstream kernel. */
const CLOCK_TICKS = 100;

/** CPU time (user + system, every thread) a process has used so far, seconds; NaN without /proc. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ": utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

function systemCpuSeconds(): { busy: number; steal: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    return { busy: (user + nice + system + irq + softirq) / CLOCK_TICKS, steal: steal / CLOCK_TICKS };
  } catch {
    return { busy: Number.NaN, steal: Number.NaN };
  }
}

/**
 * CPU seconds so far of every local Postgres server process (command name `postgres`), by pid. In
 * Postgres mode most of it, during a database scenario, is the work the service asks for; it is
 * reported apart so that it is not taken for noise (other engineers' tests use the same server).
 */
function postgresCpuSeconds(): Map<number, number> {
  const byPid = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return byPid;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0); // a new backend started at 0
  return total;
}

function ownCpuSeconds(): number {
  const self = process.cpuUsage();
  let total = (self.user + self.system) / 1e6;
  for (const pid of benchPids) total += processCpuSeconds(pid);
  return total;
}

/** CPU the rest of the machine used while a run lasted, in CPUs (2.0 = both cores of a 2-core machine, all the time). */
export interface ForeignCpu {
  /** Busy CPU time of every process but this bench's own (load generator and servers) and Postgres's, per second. */
  readonly others: number;
  /** The local Postgres server's processes, per second (whoever they worked for). */
  readonly postgres: number;
  /** Time the hypervisor gave to other guests, per second. */
  readonly steal: number;
}

/** Measures, from /proc, how much CPU other processes took during a run: the noise everyone shares. */
export class CpuMeter {
  private readonly started = process.hrtime.bigint();
  private readonly system = systemCpuSeconds();
  private readonly own = ownCpuSeconds();
  private readonly postgres = postgresCpuSeconds();

  stop(): ForeignCpu {
    const seconds = Number(process.hrtime.bigint() - this.started) / 1e9;
    const system = systemCpuSeconds();
    const own = ownCpuSeconds();
    const postgres = postgresDelta(this.postgres, postgresCpuSeconds());
    return {
      others: Math.max(0, (system.busy - this.system.busy - (own - this.own) - postgres) / seconds),
      postgres: postgres / seconds,
      steal: (system.steal - this.system.steal) / seconds,
    };
  }
}

/** A server in its own process: its port, its RSS, its event-loop delay, and a way to stop it. */
export class ServerProcess {
  private nextId = 1;
  private readonly pending = new Map<number, (message: ChildMessage) => void>();

  private constructor(readonly name: string, private readonly child: ChildProcess, readonly port: number) {
    child.on('message', (message: ChildMessage) => {
      const resolve = this.pending.get(message.id);
      if (resolve) {
        this.pending.delete(message.id);
        resolve(message);
      }
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static start(name: string, runner: Runner, script: string, env: NodeJS.ProcessEnv, options: StartOptions): Promise<ServerProcess> {
    const { timeoutMs = 120_000 } = options;
    const args = [...(options.nodeArgs ?? []), ...commandFor(runner, script)];
    const child = options.launcher === 'production'
      ? spawn('sh', [START_SCRIPT, ...args], { cwd: PROJECT_ROOT, env: { ...env, NODE: process.execPath }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
      : spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name}: no "${READY_PREFIX.trim()}" line within ${timeoutMs} ms`));
      }, timeoutMs);
      const onExit = (code: number | null, signal: string | null): void => {
        clearTimeout(timer);
        reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
      };
      child.once('exit', onExit);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (line.startsWith(READY_PREFIX)) {
          clearTimeout(timer);
          child.off('exit', onExit);
          if (child.pid !== undefined) {
            const pid = child.pid;
            benchPids.add(pid);
            child.once('exit', () => benchPids.delete(pid));
          }
          resolve(new ServerProcess(name, child, Number(line.slice(READY_PREFIX.length))));
        } else {
          process.stdout.write(`[${name}] ${line}\n`);
        }
      });
    });
  }

  rss(): number {
    return rssOf(this.pid);
  }

  private ask(message: ParentMessage & { id: number }): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.id);
        reject(new Error(`${this.name}: no answer to ${message.type}`));
      }, 30_000);
      this.pending.set(message.id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.child.send(message);
    });
  }

  resetLoopDelay(): void {
    this.child.send({ type: 'eld-reset' } satisfies ParentMessage);
  }

  async loopDelay(): Promise<LoopDelay> {
    const answer = await this.ask({ type: 'eld-read', id: this.nextId++ });
    if (answer.type !== 'eld') throw new Error(`${this.name}: unexpected answer ${answer.type}`);
    return answer.delay;
  }

  async info(): Promise<ChildInfo> {
    const answer = await this.ask({ type: 'info', id: this.nextId++ });
    if (answer.type !== 'info') throw new Error(`${this.name}: unexpected answer ${answer.type}`);
    return answer.info;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (this.child.connected) this.child.send({ type: 'shutdown' } satisfies ParentMessage);
      else this.child.kill('SIGTERM');
    });
  }
}

/** Peak RSS of some processes while a run lasts, sampled every `intervalMs`. */
export class RssSampler {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: readonly number[], intervalMs = 100) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    for (const pid of this.pids) {
      const rss = rssOf(pid);
      if (Number.isFinite(rss)) this.peaks.set(pid, Math.max(this.peaks.get(pid) ?? 0, rss));
    }
  }

  /** Stops sampling; peak RSS in bytes per pid (NaN where it could not be read). */
  stop(): Map<number, number> {
    clearInterval(this.timer);
    this.sample();
    return new Map(this.pids.map((pid) => [pid, this.peaks.get(pid) ?? Number.NaN]));
  }
}
