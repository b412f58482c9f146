import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

/*
 * The packages as a product team gets them: `portcullis` and `@portcullis/client` packed (each
 * builds itself on pack), installed from their tarballs into an empty project with plain npm, and
 * used there only through what they publish. The project (test/packaging/consumer) holds a module
 * of its own that tsc type-checks against the installed declarations, and node:test files run
 * against the installed code.
 *
 * The repository is packed from a copy, so that the pack's builds (dist/, console/dist/) never
 * rewrite files that other tests of the same run are reading.
 */

const REPO = path.resolve(__dirname, '..', '..');
const CONSUMER = path.join(__dirname, 'consumer');
const run = promisify(execFile);

/** A shell's environment, without what started this test (npm test's settings, jest's NODE_ENV, the test databases). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('npm_') || name.startsWith('JEST_') || ['NODE_ENV', 'INIT_CWD', 'DATABASE_URL', 'REDIS_URL'].includes(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

async function sh(command: string, args: readonly string[], cwd: string, extra?: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: cleanEnv(extra), maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${String(stdout ?? '').slice(-4000)}\n${String(stderr ?? '').slice(-4000)}`);
  }
}

const SKIPPED = new Set(['.git', 'node_modules', 'dist', 'dist-modules', 'build', 'coverage', '.data']);

/** The working tree without its installs and build output; the installs are linked, not copied. */
function copyOfTheRepository(into: string): string {
  const copy = path.join(into, 'repository');
  cpSync(REPO, copy, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(REPO, source);
      if (relative === '') return true;
      if (relative === path.join('console', 'node_modules') || relative === path.join('console', 'dist')) return false;
      if (relative === path.join('test', 'packaging', 'consumer')) return false;
      return !SKIPPED.has(path.basename(source));
    },
  });
  for (const installed of ['node_modules', path.join('console', 'node_modules')]) {
    // The pack builds the console too, with the console's own install (make test makes it first).
    if (!existsSync(path.join(REPO, installed))) throw new Error(`${installed} is missing: run make install and npm run console:install first`);
    symlinkSync(realpathSync(path.join(REPO, installed)), path.join(copy, installed));
  }
  return copy;
}

let work: string;
let project: string;
/** The service started from the project's entry file, stopped after its test or, should that test fail to, here. */
let running: ChildProcess | undefined;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'portcullis-packages-'));
  const copy = copyOfTheRepository(work);
  const tarballs = path.join(work, 'tarballs');
  mkdirSync(tarballs);
  await sh('npm', ['pack', '--silent', '--pack-destination', tarballs], copy);
  await sh('npm', ['pack', '--silent', '--pack-destination', tarballs], path.join(copy, 'packages', 'client'));
  const packed = readdirSync(tarballs).map((name) => path.join(tarballs, name));
  expect(packed.map((file) => path.basename(file)).sort()).toEqual(['portcullis-0.1.0.tgz', 'portcullis-client-0.2.0.tgz']);

  project = path.join(work, 'project');
  cpSync(CONSUMER, project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'shouts-service', version: '1.0.0', private: true }, null, 2)}\n`);
  // One install for every check; what the local npm cache holds is taken from it.
  await sh('npm', [
    'install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact',
    ...packed, 'express@5.3.0', 'class-validator@0.15.1', 'typescript@5.9.3', '@types/node@20.19.43',
  ], project);
  await sh('node', [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
}, 15 * 60_000);

afterAll(() => {
  running?.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A node:test file of the project, with the project's installs; each holds one test. */
async function nodeTest(file: string): Promise<void> {
  const out = await sh('node', ['--test', '--test-reporter=spec', path.join('test', file)], project);
  expect(out).toMatch(/pass 1/);
  expect(out).toMatch(/fail 0/);
}

describe('the packages, installed from their tarballs into a project of their own', () => {
  it('portcullis/testing: a test of the kit over HTTP passes', async () => {
    await nodeTest('test-kit.test.js');
  }, 120_000);

  it('@portcullis/client: a downstream service admits and refuses against the kit, and closes without a warning', async () => {
    await nodeTest('downstream.test.js');
  }, 120_000);

  it('a module outside the repository, type-checked by tsc against portcullis (and its own class-validator), is served by the kit', async () => {
    await nodeTest('shouts-module.test.js');
  }, 120_000);

  it('the same module started from its own entry file with node: its route behind the guard, its API reference merged, and the console served', async () => {
    const service = await startEntry(path.join('dist', 'main.js'));
    try {
      const shout = await fetch(`${service.url}/api/v1/shouts/hello`);
      expect({ status: shout.status, body: await shout.json() }).toEqual({ status: 401, body: { error: 'Missing authentication' } });
      const page = await fetch(`${service.url}/console/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const reference = (await (await fetch(`${service.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(reference.paths)).toEqual(expect.arrayContaining(['/api/v1/auth/me', '/api/v1/shouts/{text}']));
    } finally {
      await service.stop();
    }
  }, 180_000); // the embedded database is created and migrated at start
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node <entry>` in the project on the embedded database, and resolves once it says it listens. */
async function startEntry(entry: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn('node', [entry], {
    cwd: project,
    env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', PGLITE_DIR: path.join(work, 'pglite') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('"msg":"listening on')) resolve();
    });
    void exited.then(() => reject(new Error(`the service exited before listening:\n${output.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
