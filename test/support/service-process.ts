import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DEVELOPMENT_TENANT_WALL_KEY } from '../../src/adapters/persistence/kysely/driver/tenant-walls';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'bootstrap', 'main.ts');

export const SERVICE_JWT_SECRET = 'process-test-secret-0123456789abcdef0123';
/** Production wants a tenant-wall key of its own; the test database's walls were set up with the development key. */
export const SERVICE_TENANT_WALL_KEY = DEVELOPMENT_TENANT_WALL_KEY;
/**
 * Production refuses to start without MFA_ENCRYPTION_KEY once any member has an authenticator app,
 * and the suites that run beside these on the shared test database enroll some.
 */
export const SERVICE_MFA_ENCRYPTION_KEY = '0f'.repeat(32);

/** One JSON log line of the service. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** When the process ended (Date.now()). */
  readonly at: number;
}

/**
 * The real service (src/bootstrap/main.ts, through tsx), in its own process, with only the
 * environment given here (plus PATH and HOME): production mode, JSON logs on stdout, PGlite in
 * memory unless DATABASE_URL is given. Its log lines are parsed as they come.
 */
export class ServiceProcess {
  readonly logs: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<Exit>;
  private buffered = '';

  private constructor(private readonly child: ChildProcess, readonly port: number) {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => this.take(text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => this.stderr.push(text));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    });
  }

  /**
   * `command`: how to start it instead (a documented start command, run from the repository's
   * root, which then needs `npm run build`); the service's log lines still come on its stdout.
   */
  static async start(env: Record<string, string> = {}, options: { readyTimeoutMs?: number; command?: readonly string[] } = {}): Promise<ServiceProcess> {
    const service = await ServiceProcess.launch(env, options);
    try {
      await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('listening on'), options.readyTimeoutMs ?? 90_000);
    } catch (error) {
      service.kill();
      throw error;
    }
    return service;
  }

  /** Starts it without waiting for it to listen (for a start that is meant to fail). */
  static async launch(env: Record<string, string> = {}, options: { command?: readonly string[] } = {}): Promise<ServiceProcess> {
    const port = env['PORT'] ? Number(env['PORT']) : await freePort();
    // Production serves /metrics on a management port of its own; a fixed default would clash
    // between processes started at once, so each gets a free one unless the test chose.
    const metrics = env['METRICS_PORT'] || env['METRICS_ON_MAIN_PORT'] ? {} : { METRICS_PORT: String(await freePortBut(port)) };
    const [file, ...args] = options.command ?? [process.execPath, '--import', 'tsx', MAIN];
    const child = spawn(file!, args, {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        NODE_ENV: 'production',
        JWT_SECRET: SERVICE_JWT_SECRET,
        TENANT_WALL_KEY: SERVICE_TENANT_WALL_KEY,
        MFA_ENCRYPTION_KEY: SERVICE_MFA_ENCRYPTION_KEY,
        HOST: '127.0.0.1',
        PGLITE_DIR: 'memory://',
        LOG_LEVEL: 'info',
        ...metrics,
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServiceProcess(child, port);
  }

  /**
   * Polls GET /readyz until it answers 200 (the database, every migration and Redis when set), as
   * a load balancer does before it sends an instance traffic. Listening alone is not that.
   */
  async waitUntilReady(timeoutMs = 30_000): Promise<void> {
    const started = Date.now();
    let last = 'no answer';
    for (;;) {
      try {
        const res = await fetch(`${this.url}/readyz`);
        if (res.status === 200) return;
        last = `${res.status} ${await res.text()}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      if (Date.now() - started > timeoutMs) throw new Error(`not ready within ${timeoutMs} ms (last /readyz: ${last}); logs: ${JSON.stringify(this.logs)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Log lines at warn or above, for a failure message. */
  get troubles(): LogLine[] {
    return this.logs.filter((line) => line.level === 'warn' || line.level === 'error' || line.level === 'fatal');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Ends the process if it is still running (after a test, whatever happened). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** Resolves with the first log line (already written or to come) that matches. */
  waitForLog(matches: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const poll = (): void => {
        const found = this.logs.find(matches);
        if (found) return resolve(found);
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
          return reject(new Error(`service exited before the expected log line; stderr: ${this.stderr.join('')}; logs: ${JSON.stringify(this.logs)}`));
        }
        if (Date.now() - started > timeoutMs) return reject(new Error(`no matching log line within ${timeoutMs} ms; logs: ${JSON.stringify(this.logs)}`));
        setTimeout(poll, 25);
      };
      poll();
    });
  }

  private take(text: string): void {
    this.buffered += text;
    let newline = this.buffered.indexOf('\n');
    while (newline >= 0) {
      const raw = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      try {
        this.logs.push(JSON.parse(raw) as LogLine);
      } catch {
        this.logs.push({ msg: raw });
      }
      newline = this.buffered.indexOf('\n');
    }
  }
}

/** A port nothing listens on right now (the OS picks it; the service binds it a moment later). */
/** A free port other than `taken`: a port just found free and let go can be the next one found. */
async function freePortBut(taken: number): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== taken) return port;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
