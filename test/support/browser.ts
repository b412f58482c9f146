import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CONSOLE_DIST } from '../../src/adapters/http/console/console-files';
import type { HttpConfig } from '../../src/adapters/http/app';
import type { Clock } from '../../src/application/ports/clock';
import type { DnsTxtRecords } from '../../src/application/ports/dns-txt-records';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { databaseApp, type DatabaseApp } from './database-app';
import { createFreshDatabase } from './fresh-postgres-database';
import { buildTestApp } from './http-app';
import { freePort } from './service-process';

export { freePort };

/**
 * The console's end-to-end tests: Debian's Chromium (never a downloaded browser) driven by
 * playwright-core, against the real service (its wiring, HTTP app and database: PGlite, or Postgres
 * when DATABASE_URL is set) listening on a loopback port, serving the built console.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Runs `body` when Chromium is installed; without it the suite is skipped, saying so, unless
 * REQUIRE_BROWSER=1 (CI), where a missing browser fails the run. A console that was not built is
 * always a failure: `make test` builds it first.
 */
export function describeIfBrowser(name: string, body: () => void): void {
  const builtConsole = existsSync(path.join(CONSOLE_DIST, 'index.html'));
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
    if (process.env['REQUIRE_BROWSER'] === '1') {
      describe(name, () => test('Chromium is installed (REQUIRE_BROWSER=1)', () => {
        throw new Error(reason);
      }));
    } else {
      console.warn(`${name}: skipped, ${reason}`);
      describe.skip(`${name} (skipped: ${reason})`, () => test.todo('install Chromium to run'));
    }
    return;
  }
  if (!builtConsole) {
    describe(name, () => test('the console is built', () => {
      throw new Error(`${CONSOLE_DIST} has no index.html: run \`npm run console:build\` (make test does)`);
    }));
    return;
  }
  // A test drives a browser through several screens; on a busy machine that takes more than 30 s.
  jest.setTimeout(120_000);
  describe(name, body);
}

/** Opening a database and a browser on a busy machine can take far longer than one test's 30 s. */
export const STARTUP_TIMEOUT_MS = 180_000;

export interface ConsoleService {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The service's request listener, for setting up state through the API (supertest). */
  readonly app: RequestListener;
  /** Delivers the e-mail waiting in the outbox to the development mailbox now (the database-backed service only). */
  deliverMail(): Promise<void>;
  close(): Promise<void>;
}

async function listen(
  app: RequestListener, closeApp: () => Promise<void>, deliverMail: () => Promise<void> = async () => undefined, at = 0, hostname = '127.0.0.1',
): Promise<ConsoleService> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(at, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${hostname}:${port}`,
    app,
    deliverMail,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApp();
    },
  };
}

/**
 * The service on a loopback port of its own, over PGlite, or Postgres when DATABASE_URL is set; with
 * `modules`, those product modules are served after identity, as main(modules) serves them; with a
 * `clock`, the service tells time by it (a test clock moves it, for what depends on how long ago).
 * With `hostname: 'localhost'` its PUBLIC_URL and the pages' address name the loopback by name:
 * WebAuthn refuses an IP address as a relying party id, and the relying party is PUBLIC_URL's host.
 * With `dns`, domains' TXT records are read there (a test publishes the record an owner was given).
 */
export async function startService(
  modules: readonly PortcullisModule[] = [], options: { clock?: Clock; hostname?: 'localhost'; dns?: DnsTxtRecords } = {},
): Promise<ConsoleService> {
  const hostname = options.hostname ?? '127.0.0.1';
  const url = process.env['DATABASE_URL'];
  // A database of its own: a delivery worker claims every due message of its database, so on a
  // shared one it would take (and its mailbox hold) other test files' messages, and they its own.
  const fresh = url ? await createFreshDatabase(url) : undefined;
  // E-mailed links point at this service itself, so a test can follow one as a person would.
  const port = await freePort();
  const service: DatabaseApp = await databaseApp(fresh ? { postgres: fresh.url } : 'pglite', {
    modules, clock: options.clock, publicUrl: `http://${hostname}:${port}`, dns: options.dns,
  });
  const close = async (): Promise<void> => {
    await service.close();
    await fresh?.drop();
  };
  return listen(service.app, close, () => service.deliverMail(), port, hostname);
}

/**
 * The same service over its memory storage: for what does not depend on the database (a rate
 * limit's refusal), without opening one more.
 */
export async function startServiceInMemory(overrides: Partial<HttpConfig>): Promise<ConsoleService> {
  const { app } = await buildTestApp(overrides);
  return listen(app, async () => undefined);
}

/**
 * `npm run console:dev`'s server (Vite, hot reload) on a loopback port, its calls sent to `apiOrigin`
 * (VITE_API_BASE) as they go to http://localhost:3000 by default. Resolves once it serves the page.
 */
export async function startDevServer(port: number, apiOrigin: string): Promise<ChildProcess> {
  const consoleDir = path.resolve(CONSOLE_DIST, '..');
  const child = spawn(process.execPath, [path.join(consoleDir, 'node_modules', 'vite', 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: consoleDir,
    env: { ...process.env, VITE_API_BASE: apiOrigin },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the development server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/console/`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('the development server did not start within 60 s');
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Script errors and Content-Security-Policy violations the page reported; a test expects none. */
  readonly problems: string[];
}

/** A fresh browser context (no memory of other tests) with clipboard access, at a console address. */
export async function openConsole(browser: Browser, origin: string, address = '/console/'): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 }, locale: 'en-GB', timezoneId: 'UTC' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/the server responded with a status of/.test(message.text())) problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${origin}${address}`);
  return { page, context, problems };
}

/** Logs in through the Log in screen and waits for the screen it leads to. */
export async function logIn(page: Page, email: string, password: string, landsOn = 'Members'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: landsOn }).waitFor();
}

/** Presses Tab until `target` has the focus; fails if it never gets it, as a keyboard user would. */
export async function tabTo(page: Page, target: Locator, maxPresses = 40): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses += 1) {
    // `element.ownerDocument.activeElement`: the same element's document, without the DOM's global names.
    if (await target.evaluate((element) => element === (element as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)} in ${maxPresses} presses`);
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations on the page as it is now, one line each. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // Run in the page (a string, as it is not this program's code): the violations, reduced to plain data.
  const violations = await page.evaluate<Array<{ id: string; impact: string | null; help: string; targets: string[] }>>(`
    axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)),
    })))`);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.targets.join(', ')}`);
}

/**
 * Where screenshots go: docs/console when CONSOLE_SCREENSHOTS=1 (`npm run console:screenshots`,
 * which refreshes the pictures in docs/console.md), else a folder that is thrown away.
 */
export function screenshotDirectory(): string {
  const directory = process.env['CONSOLE_SCREENSHOTS'] === '1'
    ? path.resolve(__dirname, '../../docs/console')
    : path.join(tmpdir(), 'portcullis-console-screenshots');
  mkdirSync(directory, { recursive: true });
  return directory;
}

/** A describe block's browser and service, started once for its tests, and the pages its tests open. */
export interface ConsoleSession {
  readonly browser: Browser;
  readonly service: ConsoleService;
  /** Opens the console in a fresh context; after the test the context is closed and its page must have reported no problem. */
  open(address?: string): Promise<Page>;
}

/**
 * Registers the block's hooks: Chromium and a service (`start`, the database-backed service by
 * default) before all its tests, both closed after them, and each test's pages checked and closed
 * after it. Read `browser` and `service` inside tests and hooks only: they exist once started.
 */
export function useConsole(start: () => Promise<ConsoleService> = () => startService()): ConsoleSession {
  let browser: Browser | undefined;
  let service: ConsoleService | undefined;
  let opened: ConsolePage[] = [];
  beforeAll(async () => {
    [browser, service] = await Promise.all([launchChromium(), start()]);
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });
  afterEach(async () => {
    const closing = opened;
    opened = [];
    for (const { context, problems } of closing) {
      await context.close();
      expect(problems).toEqual([]);
    }
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started yet: read it inside a test or hook`);
    return value;
  };
  const session: ConsoleSession = {
    get browser() {
      return started(browser, 'the browser');
    },
    get service() {
      return started(service, 'the service');
    },
    open: async (address = '/console/') => {
      const consolePage = await openConsole(session.browser, session.service.origin, address);
      opened.push(consolePage);
      return consolePage.page;
    },
  };
  return session;
}
