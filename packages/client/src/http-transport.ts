import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/**
 * The library's two ways of talking to Portcullis, over node:http rather than the global fetch.
 * A process that has used fetch answers its own HTTP requests with a few percent more CPU each
 * (Node 20's fetch brings undici and web streams into the process), and the cached path of a
 * verifying service is nothing but its own requests: the verifier bench, scripts/bench/verifier.ts,
 * measured the downstream service's CPU per request with the library on fetch and on node:http.
 */
export interface Transport {
  /** POSTs a JSON body; resolves with the status and the body read as JSON (undefined when it is not). */
  postJson(url: URL, headers: Record<string, string>, body: unknown, timeoutMs: number): Promise<{ status: number; body: unknown }>;
  /** GETs a long-lived response; resolves once its head has arrived. `stop` ends it from this side. */
  openStream(url: URL, headers: Record<string, string>): Promise<{ response: IncomingMessage; stop: () => void }>;
  /** Closes the pooled connections; a later introspection opens new ones. */
  close(): void;
}

/** Connections kept open between introspections, so a miss costs a request and not a handshake. */
const MAX_IDLE_SOCKETS = 16;

function clientFor(url: URL): typeof http | typeof https {
  if (url.protocol === 'https:') return https;
  if (url.protocol === 'http:') return http;
  throw new Error(`portcullis: url must be http or https, not ${url.protocol}`);
}

export function nodeTransport(): Transport {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS }),
    https: new https.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS }),
  };
  const agentFor = (url: URL) => (url.protocol === 'https:' ? agents.https : agents.http);

  return {
    postJson: (url, headers, body, timeoutMs) => new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = clientFor(url).request(url, {
        method: 'POST',
        agent: agentFor(url),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      // One deadline for the whole exchange: connecting, sending, and reading the answer.
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.end(payload);
    }),

    openStream: (url, headers) => new Promise((resolve, reject) => {
      // Its own connection, outside the pool: it stays open for as long as the feed does.
      const req = clientFor(url).get(url, { headers, agent: false }, (response) => {
        resolve({ response, stop: () => req.destroy() });
      });
      req.on('error', reject);
    }),

    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
