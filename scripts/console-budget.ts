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
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../test/support/service-process';

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

interface Load {
  /** Wall time from the start of navigation, by the page's own clock. */
  readonly ms: number;
  /**
   * CPU time the page's renderer process had used by then (Chromium's ProcessTime metric): the
   * work the page costs, which other processes on a busy machine delay but do not add to.
   */
  readonly cpuMs: number;
}

async function rendererCpuMs(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const processTime = metrics.find((metric) => metric.name === 'ProcessTime');
  if (!processTime) throw new Error('Chromium reported no ProcessTime metric');
  return processTime.value * 1000;
}

/** From the start of navigation to a usable Log in form. */
async function timeConsole(browser: Browser, origin: string): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/console/login`, { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Log in' }).waitFor({ state: 'visible' });
  // In the page: null if the button cannot be used yet, else the page's clock since navigation began.
  const ms = await page.evaluate<number | null>("document.querySelector('button[type=submit]:not([disabled])') ? performance.now() : null");
  if (ms === null) throw new Error('the Log in button is not usable');
  const cpuMs = await rendererCpuMs(page);
  await context.close();
  return { ms, cpuMs };
}

/**
 * The baseline: the same browser, context and service, loading a document that needs no script
 * (GET /healthz) to its load event. What the browser and the machine cost before the console does
 * anything; the difference is the console's own.
 */
async function timeBaseline(browser: Browser, origin: string): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/healthz`, { waitUntil: 'load' });
  const ms = await page.evaluate<number>("performance.getEntriesByType('navigation')[0].duration");
  const cpuMs = await rendererCpuMs(page);
  await context.close();
  return { ms, cpuMs };
}

async function main(): Promise<void> {
  const sizes = bundleSizes();
  const jsGzip = sizes.filter((s) => s.file.endsWith('.js')).reduce((sum, s) => sum + s.gzip, 0);
  const port = await freePort();
  const stop = await startService(port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const consoleLoads: Load[] = [];
  const baselineLoads: Load[] = [];
  const origin = `http://127.0.0.1:${port}`;
  try {
    // One load of each first, not counted (the service's and the browser's first-use costs); then
    // the console and the baseline alternate, so both meet the same machine.
    for (let run = -1; run < RUNS; run += 1) {
      const consoleLoad = await timeConsole(browser, origin);
      const baselineLoad = await timeBaseline(browser, origin);
      if (run >= 0) {
        consoleLoads.push(consoleLoad);
        baselineLoads.push(baselineLoad);
      }
    }
  } finally {
    await browser.close();
    stop();
  }

  const usable = consoleLoads.map((l) => l.ms);
  const baseline = baselineLoads.map((l) => l.ms);
  const usableCpu = median(consoleLoads.map((l) => l.cpuMs));
  const baselineCpu = median(baselineLoads.map((l) => l.cpuMs));
  const load = loadavg().map((value) => value.toFixed(1)).join(', ');
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
    `Baseline in the same run: a document without script (\`/healthz\`) loads in ${median(baseline).toFixed(0)} ms (median of ${RUNS}), so the console is usable ${(median(usable) / median(baseline)).toFixed(1)} times the baseline's time after navigation starts, ${(median(usable) - median(baseline)).toFixed(0)} ms more. Load average during the run: ${load}.`,
    '',
    `CPU time of the page's renderer process by then (median): ${usableCpu.toFixed(0)} ms for the console, ${baselineCpu.toFixed(0)} ms for the baseline (${(usableCpu - baselineCpu).toFixed(0)} ms of the console's own work). Other processes delay this work on a busy machine but do not add to it: it is what the first screen costs where nothing else runs.`,
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
