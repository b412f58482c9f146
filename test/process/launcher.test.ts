import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const LAUNCHER = join(__dirname, '..', '..', 'scripts', 'start.sh');
const LAUNCHER_SETTINGS = ['UV_THREADPOOL_SIZE', 'MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_', 'PORTCULLIS_V8_GC_FLAGS', 'PORTCULLIS_SEMI_SPACE_MB'];

interface Launched {
  /** The options node was started with, before `-e <script>`. */
  readonly execArgv: string[];
  readonly env: Record<string, string | undefined>;
  readonly stderr: string;
}

/** What node sees when scripts/start.sh starts it, from an environment without the launcher's settings but `env`. */
function launch(env: Record<string, string> = {}): Launched {
  const clean = { ...process.env };
  for (const name of LAUNCHER_SETTINGS) delete clean[name];
  const script = 'process.stdout.write(JSON.stringify({ execArgv: process.execArgv, env: process.env }))';
  const run = spawnSync('sh', [LAUNCHER, '-e', script], { env: { ...clean, ...env }, encoding: 'utf8' });
  expect(run.status).toBe(0);
  const seen = JSON.parse(run.stdout) as { execArgv: string[]; env: Record<string, string | undefined> };
  return { execArgv: seen.execArgv.slice(0, -2), env: seen.env, stderr: run.stderr };
}

describe('scripts/start.sh, the production launcher', () => {
  it("starts node with the GC settings for a database-bound service, the glibc settings and a pool no larger than the CPUs", () => {
    const { execArgv, env, stderr } = launch();
    expect(execArgv).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=50']);
    expect(env['MALLOC_ARENA_MAX']).toBe('2');
    expect(env['MALLOC_MMAP_THRESHOLD_']).toBe('131072');
    expect(Number(env['UV_THREADPOOL_SIZE'])).toBe(Math.min(4, availableParallelism()));
    expect(stderr).toBe('');
  });

  it('keeps what the environment sets, but never a pool larger than the CPUs', () => {
    const { execArgv, env } = launch({ UV_THREADPOOL_SIZE: '64', MALLOC_ARENA_MAX: '4', PORTCULLIS_SEMI_SPACE_MB: '4' });
    expect(Number(env['UV_THREADPOOL_SIZE'])).toBe(availableParallelism());
    expect(env['MALLOC_ARENA_MAX']).toBe('4');
    expect(execArgv).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=50', '--max-semi-space-size=4']);
  });

  it("PORTCULLIS_V8_GC_FLAGS replaces the GC flags; empty leaves V8's defaults", () => {
    expect(launch({ PORTCULLIS_V8_GC_FLAGS: '--heap-growing-percent=100' }).execArgv).toEqual(['--heap-growing-percent=100']);
    expect(launch({ PORTCULLIS_V8_GC_FLAGS: '' }).execArgv).toEqual([]);
  });

  it('starts anyway, without them and saying so, when node refuses the GC flags', () => {
    const { execArgv, stderr } = launch({ PORTCULLIS_V8_GC_FLAGS: '--no-such-v8-flag-here' });
    expect(execArgv).toEqual([]);
    expect(stderr).toMatch(/does not take the V8 flags '--no-such-v8-flag-here'; starting with V8's defaults/);
  });
});
