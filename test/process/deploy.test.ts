import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIfPostgres } from '../support/postgres';
import { SERVICE_JWT_SECRET, SERVICE_MFA_ENCRYPTION_KEY, SERVICE_TENANT_WALL_KEY } from '../support/service-process';

const ROOT = join(__dirname, '..', '..');
const READY_WITHIN_MS = 90_000;

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function readyz(url: string): Promise<number | null> {
  try {
    return (await fetch(`${url}/readyz`)).status;
  } catch {
    return null; // not listening yet
  }
}

/**
 * The deploy sequence of docs/operations.md, in a temporary folder: the build's output with the
 * files the service reads at start (package.json, the lock file, docs/openapi.yaml, scripts/start.sh),
 * `npm ci --omit=dev` (production dependencies only, from the registry), then the start script
 * against Postgres until /readyz answers 200, and a graceful stop. What a production image holds, and nothing else.
 */
describeIfPostgres('deploying: the built service on production dependencies only', (databaseUrl) => {
  let folder: string;
  let service: ChildProcess | undefined;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'portcullis-deploy-'));
  });
  afterAll(() => {
    service?.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs without devDependencies, starts, migrates and becomes ready on Postgres', async () => {
    // Build stage: the repository's own TypeScript (a devDependency), into the deploy folder.
    run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(folder, 'dist')], ROOT);
    for (const file of ['package.json', 'package-lock.json', join('docs', 'openapi.yaml'), join('scripts', 'start.sh')]) {
      mkdirSync(join(folder, file, '..'), { recursive: true });
      copyFileSync(join(ROOT, file), join(folder, file));
    }
    // Runtime stage: production dependencies only.
    run('npm', ['ci', '--omit=dev'], folder);
    expect(existsSync(join(folder, 'node_modules', 'express'))).toBe(true);
    expect(existsSync(join(folder, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(join(folder, 'node_modules', 'jest'))).toBe(false);

    const port = await freePort();
    // What `npm start` runs (scripts/start.sh execs node, so the signal below reaches the service itself).
    service = spawn('sh', [join('scripts', 'start.sh')], {
      cwd: folder,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        NODE_ENV: 'production',
        JWT_SECRET: SERVICE_JWT_SECRET,
        TENANT_WALL_KEY: SERVICE_TENANT_WALL_KEY,
        MFA_ENCRYPTION_KEY: SERVICE_MFA_ENCRYPTION_KEY,
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stderr: string[] = [];
    service.stderr!.setEncoding('utf8').on('data', (text: string) => stderr.push(text));
    const exited = new Promise<number | null>((resolve) => service!.once('exit', resolve));

    const url = `http://127.0.0.1:${port}`;
    const start = Date.now();
    let status: number | null = null;
    while (status !== 200) {
      const early = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 250))]);
      if (early !== 'running') throw new Error(`the service exited (${early}) before it was ready:\n${stderr.join('')}`);
      if (Date.now() - start > READY_WITHIN_MS) throw new Error(`not ready within ${READY_WITHIN_MS} ms (last /readyz: ${status}):\n${stderr.join('')}`);
      status = await readyz(url);
    }
    expect(status).toBe(200);
    const me = await fetch(`${url}/api/v1/auth/me`);
    expect(me.status).toBe(401);

    service.kill('SIGTERM');
    expect(await exited).toBe(0);
    service = undefined;
  }, 300_000);
});
