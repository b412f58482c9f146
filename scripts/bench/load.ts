import http from 'node:http';
import autocannon from 'autocannon';
import { percentile } from './stats';

/** One load run with autocannon. Latencies are kept from its `response` event as fractional ms
 *  (autocannon's own histogram rounds to whole milliseconds, too coarse for a 1 ms request). */
export interface LoadSpec {
  readonly url: string;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly connections: number;
  /** Seconds; ignored when `amount` is set. */
  readonly duration: number;
  /** Stop after this many requests instead. */
  readonly amount?: number;
  /** Requests per second over all connections (a light probe); unlimited when unset. */
  readonly overallRate?: number;
  /** Rewrites each request before it is sent (key rotation, unique sign-up bodies). */
  readonly setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export interface LoadResult {
  /** 2xx answers per second of the run. */
  readonly rps: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly seconds: number;
  /** 2xx latency percentiles, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly statusCounts: Readonly<Record<string, number>>;
}

export interface RunningLoad {
  readonly done: Promise<LoadResult>;
  /** Ends the run early (a probe that runs as long as another load). */
  stop(): void;
}

export function startLoad(spec: LoadSpec): RunningLoad {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  let ok = 0;
  let started = process.hrtime.bigint();
  const request: autocannon.Request = {
    method: spec.method ?? 'GET',
    path: spec.path,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
  };
  let instance: autocannon.Instance | undefined;
  const done = new Promise<LoadResult>((resolve, reject) => {
    instance = autocannon({
      url: spec.url,
      connections: spec.connections,
      duration: spec.duration,
      ...(spec.amount !== undefined ? { amount: spec.amount } : {}),
      ...(spec.overallRate !== undefined ? { overallRate: spec.overallRate } : {}),
      requests: [request],
      timeout: 30,
    }, (error, result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({
        rps: ok / seconds,
        ok,
        non2xx: result.non2xx,
        errors: result.errors,
        seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        statusCounts,
      });
    });
    instance.on('start', () => {
      started = process.hrtime.bigint();
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const code = String(statusCode);
      statusCounts[code] = (statusCounts[code] ?? 0) + 1;
      if (code.startsWith('2')) {
        ok += 1;
        latencies.push(responseTime);
      }
    });
  });
  return { done, stop: () => instance?.stop() };
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return startLoad(spec).done;
}

/** Single requests over one kept-alive connection, for seeding and for sequential timings. */
export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, options: { headers?: Record<string, string>; json?: unknown } = {}): Promise<{ status: number; body: string; ms: number }> {
    const payload = options.json === undefined ? undefined : JSON.stringify(options.json);
    const headers: Record<string, string> = { ...options.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(url, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A JSON answer with the expected status, or an error that says what came back instead. */
  async json<T>(method: string, path: string, expected: number, options: { headers?: Record<string, string>; json?: unknown } = {}): Promise<T> {
    const res = await this.request(method, path, options);
    if (res.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
