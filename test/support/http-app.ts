import type { Express } from 'express';
import { createApp, type HttpConfig } from '../../src/adapters/http/app';
import { buildTestUseCases, type TestUseCases, type TestUseCasesOptions } from './test-use-cases';

export const TEST_CORS_ORIGIN = 'http://localhost:5173';

/** High enough that only the rate-limit tests ever meet a limit. */
export const GENEROUS_RATE_LIMITS = { global: 100_000, login: 100_000, signup: 100_000 } as const;

/** The contract's own limits (part 8), for the rate-limit tests. */
export const SPEC_RATE_LIMITS = { global: 100, login: 5, signup: 3 } as const;

export interface TestApp extends TestUseCases {
  readonly app: Express;
  /** What the app handed to its log: every unexplained error (answered 500). */
  readonly logged: unknown[];
}

/** The app as main builds it (buildUseCases, then createApp), over memory storage and real crypto. */
export async function buildTestApp(
  overrides: Partial<HttpConfig> = {},
  options: TestUseCasesOptions = {},
): Promise<TestApp> {
  const built = await buildTestUseCases(options);
  const logged: unknown[] = [];
  const config: HttpConfig = { corsOrigin: TEST_CORS_ORIGIN, rateLimits: GENEROUS_RATE_LIMITS, ...overrides };
  const app = createApp(built.useCases, config, (err) => logged.push(err));
  return { ...built, app, logged };
}
