import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';
import { runCommand, type CommandResult } from '../support/run-command';

const ROOT = join(__dirname, '..', '..');

/** `npm run <tool> -- <args>` (from its source: service-key, migrate), on the embedded database in `dataDir`. */
function tool(name: 'service-key' | 'migrate', args: string[], dataDir: string): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'bootstrap', `${name}.ts`), ...args], { PGLITE_DIR: dataDir });
}

/** A pid no process has: one that has just ended. */
function deadPid(): number {
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(ended.stdout);
}

// The embedded database is a Postgres server inside one process: a second process on its folder
// used to die inside WebAssembly (`RuntimeError: Aborted()`), or seem to work and lose its writes.
describe('one embedded database folder, one process', () => {
  let folder: string;
  let dataDir: string;
  const services: ServiceProcess[] = [];
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'portcullis-folder-'));
    dataDir = join(folder, 'pglite');
  });
  afterEach(() => {
    for (const service of services.splice(0)) service.kill();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a second service and the service-key command are refused in one line naming the process that holds it; the first keeps serving; after it stops, the folder is free', async () => {
    const first = await ServiceProcess.start({ PGLITE_DIR: dataDir });
    services.push(first);
    const holder = `is in use by process ${first.pid} (node `;

    const second = await ServiceProcess.launch({ PGLITE_DIR: dataDir });
    services.push(second);
    expect(await second.exited).toMatchObject({ code: 1 });
    const fatal = second.logs.filter((line) => line.level === 'fatal');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain(`could not start: the embedded database in ${dataDir} ${holder}`);
    expect(fatal[0]!.msg).toContain('stop it first');
    expect(fatal[0]).not.toHaveProperty('err');

    const listed = await tool('service-key', ['list'], dataDir);
    expect(listed.code).toBe(1);
    expect(listed.stderr.trim().split('\n')).toEqual([expect.stringContaining(`the embedded database in ${dataDir} ${holder}`)]);
    expect(listed.stderr).not.toMatch(/Aborted|RuntimeError/);
    const created = await tool('service-key', ['create', 'worker', '--all-tenants'], dataDir);
    expect(created.code).toBe(1);
    expect(created.stdout).toBe('');

    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    first.signal('SIGTERM');
    expect(await first.exited).toMatchObject({ code: 0 });
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    const after = await tool('service-key', ['list'], dataDir);
    expect(after).toMatchObject({ code: 0, stdout: 'No service keys.\n' });
  }, 180_000);

  it('a lock left by a process that is gone (killed, or the machine restarted) does not block', async () => {
    writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: deadPid(), command: 'node dist/bootstrap/main.js' }));
    const migrated = await tool('migrate', [], dataDir);
    expect(migrated).toMatchObject({ code: 0, stderr: '' });
    expect(migrated.stdout).toMatch(/applied 0001-initial/);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  }, 120_000);
});
