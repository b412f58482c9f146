import { MemoryStore, type Store } from 'express-rate-limit';
import { FailClosedStore } from './fail-closed-store';
import { type BucketOf, fixedWindowLimiter } from './fixed-window-limiter';
import type { NodeHandler } from '../fast-path/node-handler';
import { contextOf } from '../request-context';

const WINDOW_MS = 60_000;

export interface RateLimitConfig {
  /** Requests per minute per client address, over every route but /healthz. */
  readonly global: number;
  readonly login: number;
  readonly signup: number;
  /**
   * Introspection and change-feed requests per minute per service key (not per address: a busy
   * verifier makes many from one). Unset: DEFAULT_INTROSPECT_LIMIT.
   */
  readonly introspect?: number | undefined;
  /**
   * Requests per minute per client address to the routes that act on a link sent by e-mail or ask
   * for one (forgot, reset, verify, confirm). Unset: DEFAULT_RECOVERY_LIMIT.
   */
  readonly recovery?: number | undefined;
  /** Requests per minute per client address to single sign-on's start and callback. Unset: DEFAULT_SSO_LIMIT. */
  readonly sso?: number | undefined;
}

export const DEFAULT_INTROSPECT_LIMIT = 60_000;
export const DEFAULT_RECOVERY_LIMIT = 10;
export const DEFAULT_SSO_LIMIT = 20;

type DefaultedLimiter = 'introspect' | 'recovery' | 'sso';
const DEFAULT_LIMITS: Readonly<Record<DefaultedLimiter, number>> = { introspect: DEFAULT_INTROSPECT_LIMIT, recovery: DEFAULT_RECOVERY_LIMIT, sso: DEFAULT_SSO_LIMIT };

export type LimiterName = keyof RateLimitConfig;

/**
 * Where a limiter counts. Called once per limiter and must return a new store each time (with its own
 * key prefix, for a shared store such as Redis), so that every limiter keeps its own counters.
 */
export type RateLimitStoreFactory = (limiter: LimiterName) => Store;

export interface RateLimiterOptions {
  /** Unset: each limiter counts in its own in-process MemoryStore, which only this instance sees. */
  readonly store?: RateLimitStoreFactory | undefined;
  /** Where a store that failed to start is reported. */
  readonly log: (err: unknown) => void;
  /** Told of every request a limiter refuses (for the rejection counter). */
  readonly onReject?: ((limiter: LimiterName) => void) | undefined;
}

export interface RateLimiters {
  readonly global: NodeHandler;
  readonly login: NodeHandler;
  readonly signup: NodeHandler;
  /** Keyed by the calling service's key id (set on the request by the service guard), not by address. */
  readonly introspect: NodeHandler;
  readonly recovery: NodeHandler;
  readonly sso: NodeHandler;
}

/**
 * One limiter over one store (fixed-window-limiter.ts). The key is the client address only (req.ip,
 * so it follows Express's `trust proxy`), with IPv6 grouped by /56 so one host cannot rotate through
 * its subnet. The path is not part of the key: each route's limiter is mounted on the route itself,
 * and Express matches routes case-insensitively and with or without a trailing slash, so
 * `/LOGIN/?x=1` spends the same bucket as `/login`.
 *
 * Headers: draft-8 rather than draft-7. A login request passes two limiters (global, then login);
 * draft-7 writes one unnamed `RateLimit` header that the second limiter overwrites, while draft-8
 * names each policy ("100-in-1min", "5-in-1min") and appends, so the client sees both quotas.
 * No legacy X-RateLimit-* headers: they duplicate the standard ones.
 *
 * A store failure is refused, never passed: FailClosedStore turns it into a 503 the error mapper
 * answers.
 */
function limiter(limit: number, store: Store, log: (err: unknown) => void, onReject: () => void, bucketOf?: BucketOf): NodeHandler {
  return fixedWindowLimiter({ limit, windowMs: WINDOW_MS, store: new FailClosedStore(store), log, onReject, bucketOf });
}

export function createRateLimiters(config: RateLimitConfig, options: RateLimiterOptions): RateLimiters {
  const storeFor = options.store ?? (() => new MemoryStore());
  const { onReject } = options;
  const build = (name: LimiterName, bucketOf?: BucketOf) => limiter(
    config[name] ?? DEFAULT_LIMITS[name as DefaultedLimiter], storeFor(name), options.log, onReject ? () => onReject(name) : () => undefined, bucketOf,
  );
  return {
    global: build('global'),
    login: build('login'),
    signup: build('signup'),
    introspect: build('introspect', (req) => `service:${contextOf(req).serviceCaller?.serviceKeyId ?? ''}`),
    recovery: build('recovery'),
    sso: build('sso'),
  };
}
