import cors from 'cors';
import type { NodeHandler } from '../fast-path/node-handler';

// Not safelisted for scripts otherwise: a browser client needs them to back off after a 429.
// X-Device-Proof: a browser client on another origin keeps the proof it is given and sends it back.
const EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Device-Proof'];

/**
 * Given a plain string, the cors package sends that origin to every caller; given a list, it echoes
 * the request's Origin only on an exact match and sends no Access-Control-Allow-Origin otherwise.
 * Either way it adds `Vary: Origin`, so a cache never serves one origin's answer to another.
 * Preflights (OPTIONS) end here with a 204; every other request goes on with the allowed origin
 * (on a match), `Vary: Origin` and the exposed headers.
 */
export function corsPolicy(allowedOrigin: string): NodeHandler {
  return cors({
    origin: [allowedOrigin],
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-api-key', 'X-Device-Proof'],
    exposedHeaders: EXPOSED_HEADERS,
    // Every authenticated call carries a non-simple header, hence a preflight; cache it for a while.
    maxAge: 600,
  });
}
