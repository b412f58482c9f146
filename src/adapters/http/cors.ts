import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * Given a plain string, the cors package sends that origin to every caller; given a list, it echoes
 * the request's Origin only on an exact match and sends no Access-Control-Allow-Origin otherwise.
 * Either way it adds `Vary: Origin`, so a cache never serves one origin's answer to another.
 */
export function corsPolicy(allowedOrigin: string): RequestHandler {
  return cors({
    origin: [allowedOrigin],
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-api-key'],
    // Not safelisted for scripts otherwise: a browser client needs them to back off after a 429.
    exposedHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After'],
    // Every authenticated call carries a non-simple header, hence a preflight; cache it for a while.
    maxAge: 600,
  });
}
