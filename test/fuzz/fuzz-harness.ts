/**
 * The fuzz suites' shared harness: run settings, one real HTTP server per suite, and the three
 * properties every response must keep (see docs/security.md, "Abuse suite and fuzzed API"):
 *
 *   1. never a 5xx (and nothing reaches the app's error log);
 *   2. every 4xx is JSON with a string `error`;
 *   3. a request answered with a 4xx leaves the stored data exactly as it was;
 * and every answer is one docs/openapi.yaml allows (test/support/openapi-validator.ts).
 *
 * Runs are reproducible: a fixed seed, and a bounded number of runs per property, small enough for CI.
 *   npm test -- test/fuzz                      default: FUZZ_RUNS=100 per property, fixed seed
 *   FUZZ_RUNS=2000 npm test -- test/fuzz       long local mode (a few minutes)
 *   FUZZ_SEED=123 FUZZ_RUNS=2000 npm test -- test/fuzz    another corner of the input space
 * A failure prints the seed and the shrunk counterexample; FUZZ_SEED=<seed> with the same FUZZ_RUNS replays it.
 *
 * Why node:http rather than supertest here: arbitrary methods (QUERY, PROPFIND, ...) and raw paths
 * (`/invites/%zz`) must reach the server byte for byte, and one listening server per suite is an
 * order of magnitude faster than supertest's server per request. Anything the Node client refuses
 * to send (a control character in a header, a space in a path) throws synchronously in
 * http.request, before a byte is written: such a case counts as "not sent" (fc.pre), never as a
 * pass. Every asynchronous error (a reset connection, a hang-up) is a failure of the server.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { RequestListener } from 'node:http';
import { createInspectableMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { buildTestApp, type TestApp } from '../support/http-app';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import type { TestUseCasesOptions } from '../support/test-use-cases';

export const FUZZ_SEED = integerFromEnv('FUZZ_SEED', 0x5eed);
export const FUZZ_RUNS = integerFromEnv('FUZZ_RUNS', 100);
/**
 * Jest's per-test limit for one property. A property takes about a second by default; the margin is
 * for a loaded CI machine (a timeout says nothing about the service), and long mode scales it.
 */
export const FUZZ_TIMEOUT_MS = Math.max(60_000, FUZZ_RUNS * 100);

function integerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** fast-check's settings for one property; `runs` scales a property that costs more per run. */
export function fuzzParameters<T>(runs: number = FUZZ_RUNS): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(runs)) };
}

export interface FuzzRequest {
  readonly method: string;
  /** Sent as is in the request line: already percent-encoded where needed. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array | undefined;
}

export interface FuzzResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** Errors Node's client raises synchronously for what HTTP/1.1 cannot carry: nothing was sent. */
const CLIENT_REFUSALS = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_UNESCAPED_CHARACTERS', 'ERR_HTTP_INVALID_HEADER_VALUE']);

export interface StoredState {
  /** A canonical rendering of every stored record: equal strings, equal data. */
  snapshot(): Promise<string> | string;
}

/** The app behind a real socket, with what a property needs to judge each answer. */
export class FuzzTarget {
  private constructor(
    private readonly server: http.Server,
    private readonly port: number,
    readonly app: RequestListener,
    readonly state: StoredState,
    /** The app's error log: every unexplained error (answered 500) lands here. */
    readonly logged: unknown[],
  ) {}

  static async listen(app: RequestListener, state: StoredState, logged: unknown[]): Promise<FuzzTarget> {
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FuzzTarget(server, (server.address() as AddressInfo).port, app, state, logged);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The response, or null when Node's client refused to send the request at all. */
  send(request: FuzzRequest): Promise<FuzzResponse | null> {
    return new Promise((resolve, reject) => {
      // Node's client frames a GET or DELETE body with neither Content-Length nor chunking, so the
      // server would read it as the next request: say how long it is, as any real client does.
      // A string body is sent as bytes: Node writes the head together with a string body in the
      // body's encoding (UTF-8), which would re-encode Latin-1 header values on the way out.
      const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
      const headers = body === undefined ? request.headers : { ...request.headers, 'content-length': String(body.byteLength) };
      let req: http.ClientRequest;
      try {
        req = http.request({
          host: '127.0.0.1', port: this.port, method: request.method, path: request.path, headers,
          agent: false, // a fresh connection each time: no reuse of a socket the server chose to close
        });
      } catch (error) {
        if (CLIENT_REFUSALS.has((error as { code?: string }).code ?? '')) resolve(null);
        else reject(error);
        return;
      }
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      // After the answer, the server may drop a body it chose not to read (a 401 before a 100 kB
      // upload): a reset then is expected. Before any answer it means the server failed us.
      req.on('error', (error) => {
        if (!answered) reject(new Error(`no response to ${request.method} ${request.path}: ${error.message}`));
      });
      req.end(body);
    });
  }
}

/** Properties 1 and 2, on one response; `newlyLogged` is what the app logged meanwhile. Throws, naming the broken property. */
export function checkResponse(request: FuzzRequest, res: FuzzResponse, newlyLogged: readonly unknown[] = []): void {
  const where = `${request.method} ${request.path}`;
  if (res.status >= 500) throw new Error(`${where} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (newlyLogged.length > 0) throw new Error(`${where} put an error in the app's log: ${String(newlyLogged[0])}`);
  // Every answer, 2xx included, must be one docs/openapi.yaml allows: the fuzzers are its best drift detectors.
  assertMatchesOpenApi({ method: request.method, target: request.path, status: res.status, headers: res.headers, body: res.text });
  if (res.status < 400) return;
  const type = res.headers['content-type'] ?? '';
  if (!/^application\/json(;|$)/.test(type)) throw new Error(`${where} answered ${res.status} with Content-Type "${type}"`);
  if (request.method === 'HEAD') return; // no body to a HEAD, by definition
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`${where} answered ${res.status} with a body that is not JSON: ${res.text.slice(0, 300)}`);
  }
  if (typeof body !== 'object' || body === null || typeof (body as { error?: unknown }).error !== 'string') {
    throw new Error(`${where} answered ${res.status} without a string "error": ${res.text.slice(0, 300)}`);
  }
}

export type ExtraCheck = (request: FuzzRequest, res: FuzzResponse) => void;

/**
 * Sends one request and checks the three properties, plus `extra` for a suite's own. Returns the
 * response (null when it could not be sent) so that a caller can look further.
 */
export async function sendAndCheck(target: FuzzTarget, request: FuzzRequest, extra?: ExtraCheck): Promise<FuzzResponse | null> {
  const before = await target.state.snapshot();
  const loggedBefore = target.logged.length;
  const res = await target.send(request);
  if (res === null) return null;
  checkResponse(request, res, target.logged.slice(loggedBefore));
  if (res.status >= 400 && res.status < 500) {
    const after = await target.state.snapshot();
    if (after !== before) {
      throw new Error(`${request.method} ${request.path} answered ${res.status} (${res.text.slice(0, 200)}) but changed storage: ${changedTables(before, after)}`);
    }
  }
  extra?.(request, res);
  return res;
}

/** The three properties over every request `requests` generates. */
export async function assertServerContract(
  target: FuzzTarget,
  requests: fc.Arbitrary<FuzzRequest>,
  extra?: ExtraCheck,
  runs?: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      const res = await sendAndCheck(target, request, extra);
      fc.pre(res !== null); // not sent: skipped, and fast-check fails the property if that happens too often
    }),
    fuzzParameters(runs),
  );
}

function changedTables(before: string, after: string): string {
  try {
    const a = JSON.parse(before) as Record<string, unknown>;
    const b = JSON.parse(after) as Record<string, unknown>;
    const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return names.filter((name) => JSON.stringify(a[name]) !== JSON.stringify(b[name])).join(', ') || '(order only)';
  } catch {
    return '(snapshots differ)';
  }
}

/** Far above anything a property sends, so that no run meets a 429 that hides what it probes. */
export const UNLIMITED = { global: 1_000_000_000, login: 1_000_000_000, signup: 1_000_000_000, sso: 1_000_000_000 } as const;

/** The per-account login throttle, opened wide for the same reason. */
export const UNTHROTTLED = { limit: 1_000_000_000, accountLimit: 1_000_000_000, windowSeconds: 60 } as const;

/** buildTestApp's app (real wiring, memory storage) behind a socket, with a snapshot of its storage. */
export async function memoryTarget(options: Omit<TestUseCasesOptions, 'storage'> = {}): Promise<{ target: FuzzTarget; testApp: TestApp }> {
  const storage = createInspectableMemoryStorage();
  const testApp = await buildTestApp({ rateLimits: UNLIMITED }, { loginFailures: UNTHROTTLED, ...options, storage });
  const target = await FuzzTarget.listen(testApp.app, storage, testApp.logged);
  return { target, testApp };
}
