import cors from 'cors';
import vary from 'vary';
import type { NodeHandler } from '../fast-path/node-handler';

// Not safelisted for scripts otherwise: a browser client needs them to back off after a 429.
const EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After'];

/**
 * Given a plain string, the cors package sends that origin to every caller; given a list, it echoes
 * the request's Origin only on an exact match and sends no Access-Control-Allow-Origin otherwise.
 * Either way it adds `Vary: Origin`, so a cache never serves one origin's answer to another.
 *
 * Preflights (OPTIONS) go through the cors package. Every other request, which is nearly all of
 * them and mostly from servers that send no Origin, gets the same three headers the package would
 * give it (allowed origin on an exact match, `Vary: Origin`, the exposed headers), built once
 * instead of per request.
 */
export function corsPolicy(allowedOrigin: string): NodeHandler {
  const preflight = cors({
    origin: [allowedOrigin],
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'x-api-key'],
    exposedHeaders: EXPOSED_HEADERS,
    // Every authenticated call carries a non-simple header, hence a preflight; cache it for a while.
    maxAge: 600,
  });
  const exposed = EXPOSED_HEADERS.join(',');
  return (req, res, next) => {
    if (req.method === 'OPTIONS') {
      preflight(req, res, next);
      return;
    }
    if (req.headers.origin === allowedOrigin) res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
    vary(res, 'Origin');
    res.setHeader('Access-Control-Expose-Headers', exposed);
    next();
  };
}
