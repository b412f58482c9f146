import type { RequestHandler } from 'express';
import { rateLimit, type RateLimitInfo } from 'express-rate-limit';
import { HttpError } from './http-error';

const WINDOW_MS = 60_000;

export interface RateLimitConfig {
  /** Requests per minute per client address, over every route but /healthz. */
  readonly global: number;
  readonly login: number;
  readonly signup: number;
}

export interface RateLimiters {
  readonly global: RequestHandler;
  readonly login: RequestHandler;
  readonly signup: RequestHandler;
}

/** Whole seconds until the client's window resets, never 0: "retry after 0 seconds" invites a hammering loop. */
function secondsUntilReset(info: RateLimitInfo | undefined): number {
  const resetAt = info?.resetTime?.getTime() ?? Date.now() + WINDOW_MS;
  return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
}

/**
 * Each call builds a limiter with its own in-memory store, so login attempts never spend the signup
 * budget and vice versa. The key is the library's default: the client address (req.ip, so it follows
 * Express's `trust proxy`), with IPv6 grouped by /56 so one host cannot rotate through its subnet.
 *
 * Headers: draft-8 rather than draft-7. A login request passes two limiters (global, then login);
 * draft-7 writes one unnamed `RateLimit` header that the second limiter overwrites, while draft-8
 * names each policy ("100-in-1min", "5-in-1min") and appends, so the client sees both quotas.
 * Legacy X-RateLimit-* headers are off: they duplicate the standard ones.
 */
function limiter(limit: number): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // The library has already set Retry-After (it does so whenever standard headers are on), but
    // from its own rounding that can say 0; we set it again so header and message agree.
    handler: (req, res, next, options) => {
      const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[options.requestPropertyName];
      const seconds = secondsUntilReset(info);
      res.setHeader('Retry-After', String(seconds));
      next(new HttpError(options.statusCode, `Too many requests, retry after ${seconds} seconds`));
    },
  });
}

export function createRateLimiters(config: RateLimitConfig): RateLimiters {
  return { global: limiter(config.global), login: limiter(config.login), signup: limiter(config.signup) };
}
