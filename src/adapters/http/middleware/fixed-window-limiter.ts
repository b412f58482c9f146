import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ClientRateLimitInfo, ipKeyGenerator, type Options, type Store } from 'express-rate-limit';
import { TooManyRequests } from '../errors/http-error';
import type { NodeHandler, NodeRequest, NodeResponse } from '../fast-path/node-handler';

/**
 * What the limiter asks of a store: express-rate-limit's store interface (MemoryStore,
 * rate-limit-redis), of which it calls `init` once and `increment` per request.
 */
export type CountingStore = Pick<Store, 'init' | 'increment'>;

/** The bucket a request counts in, when it is not the client's address (a service's key id). */
export type BucketOf = (req: NodeRequest, res: NodeResponse) => string;

export interface FixedWindowOptions {
  readonly limit: number;
  readonly windowMs: number;
  /** MemoryStore, rate-limit-redis, FailClosedStore around either. */
  readonly store: CountingStore;
  /** Where a store that fails to start is reported (its increments then fail, and are refused). */
  readonly log: (err: unknown) => void;
  /** Called once for each request refused for its count (metrics). */
  readonly onReject?: (() => void) | undefined;
  /** Unset: the client address (req.ip, IPv6 by /56). */
  readonly bucketOf?: BucketOf | undefined;
}

/** What one client address costs to key: its bucket (IPv6 grouped by /56) and the header's partition key. */
interface Client {
  readonly key: string;
  readonly partitionKey: string;
}

/** Addresses whose key is remembered; past this the memo starts again (it only saves work). */
const MEMO_LIMIT = 10_000;

/** express-rate-limit's draft-8 `pk`: base64 of the first 12 hex digits of the key's SHA-256. */
function partitionKeyOf(key: string): string {
  return Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
}

/** `1min`, `30sec`: express-rate-limit's policy names, so headers read as they always did. */
function windowName(windowMs: number): string {
  const seconds = windowMs / 1000;
  return seconds < 60 ? `${seconds}sec` : `${seconds / 60}min`;
}

/** Adds a value after any already set (a second limiter on the route), as Express's res.append does. */
function appendHeader(res: ServerResponse, name: string, value: string): void {
  const previous = res.getHeader(name);
  if (previous === undefined) res.setHeader(name, value);
  else res.setHeader(name, Array.isArray(previous) ? [...previous, value] : [String(previous), value]);
}

/**
 * A fixed-window rate limit per client address: express-rate-limit's semantics and headers, on its
 * stores, for a fraction of its per-request work. The library's middleware awaits five values per
 * request (skip, key, count, limit, policy name), hashes the key for the header, and validates its
 * configuration as it goes; for the global limiter, which every request passes, that was most of
 * the cost of a GET /me. Here the count is the only await, the policy strings are built once, and
 * an address's bucket key and partition key are worked out once (the IPv6 parse and the SHA-256).
 * The library in its place cost half as much CPU again on GET /me: `scripts/bench/compare.ts`, with
 * the library swapped in (docs/benchmarks.md, "Rate limiting").
 *
 * Semantics kept: the key is the client address only (req.ip, so Express's `trust proxy` decides
 * it), IPv6 by /56; the store counts atomically (one Redis script shared by every instance, or the
 * in-process MemoryStore); more than `limit` in the window is a TooManyRequests with the seconds
 * left; a store error rejects the request (FailClosedStore makes it a 503). Headers: draft-8
 * `RateLimit` and `RateLimit-Policy`, appended, so a request that passes two limiters shows both.
 */
export function fixedWindowLimiter({ limit, windowMs, store, log, onReject, bucketOf }: FixedWindowOptions): NodeHandler {
  // The library hands its whole configuration to init; the stores we use read windowMs only.
  try {
    void Promise.resolve(store.init?.({ windowMs, limit } as Options)).catch(log);
  } catch (error) {
    log(error);
  }

  const name = `${limit}-in-${windowName(windowMs)}`;
  const windowSeconds = Math.ceil(windowMs / 1000);
  const remainingPrefix = `"${name}"; r=`;
  const policyPrefix = `"${name}"; q=${limit}; w=${windowSeconds}; pk=:`;
  const clients = new Map<string, Client>();

  const clientOf = (ip: string, keyOf: (value: string) => string = ipKeyGenerator): Client => {
    let client = clients.get(ip);
    if (!client) {
      if (clients.size >= MEMO_LIMIT) clients.clear();
      const key = keyOf(ip);
      client = { key, partitionKey: partitionKeyOf(key) };
      clients.set(ip, client);
    }
    return client;
  };

  return (req, res, next) => {
    const client = bucketOf ? clientOf(bucketOf(req, res), (bucket) => bucket) : clientOf(req.ip ?? '');
    let counted: Promise<ClientRateLimitInfo>;
    try {
      counted = Promise.resolve(store.increment(client.key));
    } catch (error) {
      next(error);
      return;
    }
    counted.then(({ totalHits, resetTime }) => {
      const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
      appendHeader(res, 'RateLimit', `${remainingPrefix}${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`);
      appendHeader(res, 'RateLimit-Policy', `${policyPrefix}${client.partitionKey}:`);
      // Never "retry after 0 seconds": that invites a hammering loop.
      if (totalHits > limit) {
        onReject?.();
        next(new TooManyRequests(Math.max(1, resetSeconds)));
      } else {
        next();
      }
    }, next);
  };
}
