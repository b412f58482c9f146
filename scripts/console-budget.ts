/**
 * The console's budgets, measured (not a test): its JavaScript, gzipped, at most 150 KB; and the first
 * screen usable within 1 s on localhost. Starts the built service as `npm start` does (scripts/start.sh,
 * embedded database in memory) on a free loopback port, opens /console/login in Debian's Chromium
 * several times, each in a fresh context (empty cache), and times how long until the Log in form
 * can be used. Prints a Markdown table; with --write, puts it into docs/console.md between the
 * budget markers. Exits 1 when a budget is missed.
 *
 *   npm run build && npm run console:build && npm run console:budget [-- --write]
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..');
const ASSETS = path.join(ROOT, 'console', 'dist', 'assets');
const DOC = path.join(ROOT, 'docs', 'console.md');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const JS_BUDGET_KB = 150;
const USABLE_BUDGET_MS = 1000;
const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function bundleSizes(): { file: string; raw: number; gzip: number }[] {
  return readdirSync(ASSETS)
    .filter((file) => file.endsWith('.js') || file.endsWith('.css'))
    .map((file) => {
      const body = readFileSync(path.join(ASSETS, file));
      return { file, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
    });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startService(port: number): Promise<() => void> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', PGLITE_DIR: 'memory://', LOG_LEVEL: 'warn', NODE: process.execPath };
  delete env['DATABASE_URL'];
  delete env['REDIS_URL'];
  const child = spawn('sh', [path.join(ROOT, 'scripts', 'start.sh')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return () => child.kill('SIGTERM');
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the service was not ready within 120 s');
}

async function main(): Promise<void> {
  const sizes = bundleSizes();
  const jsGzip = sizes.filter((s) => s.file.endsWith('.js')).reduce((sum, s) => sum + s.gzip, 0);
  const port = await freePort();
  const stop = await startService(port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const usable: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/console/login`, { waitUntil: 'commit' });
      const button = page.getByRole('button', { name: 'Log in' });
      await button.waitFor({ state: 'visible' });
      // Milliseconds since the navigation began, by the page's own clock, once the form accepts input.
      usable.push(await page.evaluate(() => {
        const submit = document.querySelector<HTMLButtonElement>('button[type=submit]');
        if (!submit || submit.disabled) throw new Error('the Log in button is not usable');
        return performance.now();
      }));
      await context.close();
    }
  } finally {
    await browser.close();
    stop();
  }

  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const jsOk = jsGzip <= JS_BUDGET_KB * 1024;
  const usableOk = median(usable) <= USABLE_BUDGET_MS;
  const lines = [
    `Measured by \`npm run console:budget\` on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, Chromium at ${CHROMIUM}.`,
    '',
    '| Budget | Limit | Measured | Met |',
    '|---|---|---|---|',
    `| JavaScript, gzipped (level 9), all bundles | ${JS_BUDGET_KB} KB | ${kb(jsGzip)} KB | ${jsOk ? 'yes' : 'NO'} |`,
    `| First screen usable (Log in form), median of ${RUNS} cold loads | ${USABLE_BUDGET_MS} ms | ${median(usable).toFixed(0)} ms (fastest ${Math.min(...usable).toFixed(0)}, slowest ${Math.max(...usable).toFixed(0)}) | ${usableOk ? 'yes' : 'NO'} |`,
    '',
    '| File | Bytes | Gzipped |',
    '|---|---|---|',
    ...sizes.map((s) => `| \`${s.file.replace(/-[\w-]{8}\./, '-<hash>.')}\` | ${kb(s.raw)} KB | ${kb(s.gzip)} KB |`),
  ];
  const table = lines.join('\n');
  console.log(table);
  if (process.argv.includes('--write')) {
    const doc = readFileSync(DOC, 'utf8');
    const updated = doc.replace(/(<!-- budget:start -->\n)[\s\S]*?(\n<!-- budget:end -->)/, `$1${table}$2`);
    if (updated === doc && !doc.includes(table)) throw new Error(`${DOC} has no budget markers`);
    writeFileSync(DOC, updated);
    console.log(`\nwritten to ${path.relative(ROOT, DOC)}`);
  }
  if (!jsOk || !usableOk) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
