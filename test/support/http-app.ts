import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import type { HttpConfig } from '../../src/adapters/http/app';
import type { AssemblyParts } from '../../src/bootstrap/assemble';
import type { Config } from '../../src/bootstrap/config';
import { assembleForTest, testConfig, type TestUseCases, type TestUseCasesOptions } from './test-use-cases';

export const TEST_CORS_ORIGIN = 'http://localhost:5173';

/** High enough that only the rate-limit tests ever meet a limit. */
export const GENEROUS_RATE_LIMITS = { global: 100_000, login: 100_000, signup: 100_000, recovery: 100_000, sso: 100_000 } as const;

/** The contract's own limits (docs/contract.md, "Errors and limits"), for the rate-limit tests. */
export const SPEC_RATE_LIMITS = { global: 100, login: 5, signup: 3 } as const;

export interface TestApp extends TestUseCases {
  readonly app: RequestListener;
  /** What the app handed to its log: every unexplained error (answered 500). */
  readonly logged: unknown[];
}

/**
 * The app as main builds it (assemble, the one composition root), over memory storage and real
 * crypto. `appOptions` adds a logger, metrics or a readiness probe; errors are collected in `logged`
 * either way.
 */
export async function buildTestApp(
  overrides: Partial<HttpConfig> = {},
  options: TestUseCasesOptions = {},
  appOptions: TestAppOptions = {},
): Promise<TestApp> {
  const logged: unknown[] = [];
  const { rateLimitStore, trustProxy, rateLimits, corsOrigin } = overrides;
  const defaults = testConfig(options);
  const config = testConfig(options, {
    corsOrigin: corsOrigin ?? TEST_CORS_ORIGIN,
    rateLimits: { ...defaults.rateLimits, ...GENEROUS_RATE_LIMITS, ...rateLimits },
    trustProxy: trustProxy === undefined ? false : (trustProxy as Config['trustProxy']),
    changeStreams: { ...defaults.changeStreams, ...appOptions.changeStreamLimits },
    metrics: { enabled: false, port: appOptions.serveMetrics === false ? 9464 : undefined },
  });
  const assembly = await assembleForTest(options, config, {
    logger: appOptions.logger,
    metrics: appOptions.metrics,
    readiness: appOptions.readiness,
    rateLimitStore,
    changeHeartbeatMs: appOptions.changeHeartbeatMs,
    consoleFiles: appOptions.consoleFiles,
    onBackgroundError: appOptions.onBackgroundError,
    onError: (err) => {
      logged.push(err);
      appOptions.onError?.(err);
    },
  });
  return {
    useCases: assembly.useCases,
    storage: assembly.storage.storage,
    services: { tokens: assembly.tokens, secrets: assembly.secrets, clock: assembly.clock },
    assembly,
    app: assembly.listener,
    logged,
  };
}

/** What a test chooses of the app beyond the configuration. */
export interface TestAppOptions {
  readonly logger?: AssemblyParts['logger'];
  readonly metrics?: AssemblyParts['metrics'];
  /** False: /metrics is served on a port of its own (so not by this app). */
  readonly serveMetrics?: boolean;
  readonly readiness?: AssemblyParts['readiness'];
  readonly changeHeartbeatMs?: number;
  readonly changeStreamLimits?: Partial<Config['changeStreams']>;
  readonly consoleFiles?: AssemblyParts['consoleFiles'];
  readonly onError?: (err: unknown) => void;
  /** Off-request-path failures (the change log, the freshness check); the console when unset. */
  readonly onBackgroundError?: (err: unknown) => void;
}

/** Sends one request after another: the order of counting matters to a rate limit. */
export async function sendSequentially(times: number, send: (i: number) => PromiseLike<Response>): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < times; i += 1) responses.push(await send(i));
  return responses;
}

/**
 * The 429 we chose (docs/contract.md, "Errors and limits", leaves it open): JSON `{ error: "Too many requests, retry after N
 * seconds" }` with N at least 1, at most `maxSeconds`, and a Retry-After header that says the same.
 * With a policy name ("5-in-1min"), also the draft-8 RateLimit headers of that limiter, exhausted.
 */
export function expectTooManyRequests(res: Response, options: { policy?: string; maxSeconds?: number } = {}): number {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body as object)).toEqual(['error']);
  const match = /^Too many requests, retry after (\d+) seconds$/.exec(res.body.error);
  expect(match).not.toBeNull();
  const seconds = Number(match![1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(options.maxSeconds ?? 60);
  expect(res.headers['retry-after']).toBe(String(seconds));
  if (options.policy) {
    expect(res.headers['ratelimit']).toContain(`"${options.policy}"; r=0; t=`);
    expect(res.headers['ratelimit-policy']).toContain(`"${options.policy}"; q=`);
  }
  return seconds;
}

/** A store-failure refusal: 503, the fixed body, and a Retry-After; never a 500, never a pass. */
export function expectServiceUnavailable(res: Response, error = 'Service unavailable'): void {
  expect(res.status).toBe(503);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/** An instance that could not confirm it has applied every committed credential change refuses, never answers from memory. */
export function expectAuthenticationUnavailable(res: Response): void {
  expectServiceUnavailable(res, 'Authentication unavailable');
}
