import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * `make run` restarts at once when nothing was changed, and still compiles after a change. Asked of
 * make itself (`make -n`: what it would run, running nothing) in a copy of what the build reads,
 * with the installed packages and the console taken as up to date (`-o`), so nothing here depends
 * on this checkout's own dist/ or installs anything.
 */
describe('make run: the service is compiled only when its sources changed', () => {
  let copy: string;
  beforeEach(() => {
    copy = mkdtempSync(join(tmpdir(), 'portcullis-make-'));
    for (const file of ['Makefile', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) cpSync(join(ROOT, file), join(copy, file));
    cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
  });
  afterEach(() => rmSync(copy, { recursive: true, force: true }));

  /** The commands `make run` would run now. */
  function wouldRun(): string {
    const dryRun = spawnSync('make', ['-n', '-o', 'node_modules/.install-stamp', '-o', 'console/dist/index.html', 'run'], { cwd: copy, encoding: 'utf8' });
    expect(dryRun.stderr).toBe('');
    expect(dryRun.status).toBe(0);
    return dryRun.stdout;
  }

  /** A build that finished a minute ago (every copied file is older still), as `make build` leaves it. */
  function builtAMinuteAgo(): Date {
    const built = new Date(Date.now() - 60_000);
    const older = new Date(built.getTime() - 60_000);
    const touchTree = (path: string): void => {
      const listing = spawnSync('find', [path], { encoding: 'utf8' }).stdout.trim().split('\n');
      for (const entry of listing) utimesSync(entry, older, older);
    };
    for (const entry of ['src', 'tsconfig.json', 'tsconfig.build.json']) touchTree(join(copy, entry));
    mkdirSync(join(copy, 'dist'), { recursive: true });
    writeFileSync(join(copy, 'dist', '.build-stamp'), '');
    utimesSync(join(copy, 'dist', '.build-stamp'), built, built);
    return built;
  }

  it('a first run compiles', () => {
    expect(wouldRun()).toMatch(/npm run build/);
  });

  it('a restart with nothing changed starts without compiling', () => {
    builtAMinuteAgo();
    const commands = wouldRun();
    expect(commands).not.toMatch(/npm run build/);
    expect(commands).toMatch(/npm start/);
  });

  it('a restart after a source changed, or a file was added, compiles again', () => {
    const built = builtAMinuteAgo();
    const later = new Date(built.getTime() + 1_000);
    utimesSync(join(copy, 'src', 'bootstrap', 'main.ts'), later, later);
    expect(wouldRun()).toMatch(/npm run build[\s\S]*npm start/);

    builtAMinuteAgo();
    writeFileSync(join(copy, 'src', 'bootstrap', 'added.ts'), 'export const added = true;\n');
    expect(wouldRun()).toMatch(/npm run build/);
  });

  it('a restart after a compiler setting changed compiles again', () => {
    const built = builtAMinuteAgo();
    const later = new Date(built.getTime() + 1_000);
    utimesSync(join(copy, 'tsconfig.json'), later, later);
    expect(wouldRun()).toMatch(/npm run build/);
  });
});
