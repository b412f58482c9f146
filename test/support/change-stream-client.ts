import http, { type RequestListener, type ServerResponse } from 'node:http';
import { SseParser, type ServerSentEvent } from '../../packages/client/src/sse-parser';

const CHANGES = '/api/v1/auth/changes';

/** A change stream read raw, as a verifier in any language would: its status, and its events as they come. */
export interface RawChangeStream {
  readonly status: number;
  readonly events: ServerSentEvent[];
  /** Resolves once an event matching `wanted` has arrived, or with false if the stream ended first. */
  until(wanted: (event: ServerSentEvent) => boolean): Promise<boolean>;
  /** Resolves once the stream has ended (from Portcullis's side, or ours). */
  readonly ended: Promise<void>;
  /** Stops reading: what Portcullis writes piles up in the socket and then in Portcullis. */
  pause(): void;
  resume(): void;
  close(): void;
}

export async function openRawChangeStream(baseUrl: string, serviceKey: string): Promise<RawChangeStream> {
  const parser = new SseParser();
  const events: ServerSentEvent[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => { markEnded = resolve; });
  const finish = () => {
    done = true;
    markEnded();
    for (const wake of waiters.splice(0)) wake();
  };
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${baseUrl}${CHANGES}`, { headers: { 'x-service-key': serviceKey }, agent: false }, resolve).on('error', reject);
  });
  res.setEncoding('utf8');
  res.on('data', (text: string) => {
    events.push(...parser.push(text));
    for (const wake of waiters.splice(0)) wake();
  });
  res.on('end', finish);
  res.on('close', finish);
  res.on('error', finish);
  return {
    status: res.statusCode ?? 0,
    events,
    async until(wanted) {
      for (;;) {
        if (events.some(wanted)) return true;
        if (done) return false;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    ended,
    pause: () => res.pause(),
    resume: () => res.resume(),
    close: () => res.destroy(),
  };
}

/** Every write a stream's response got, as text: how the server batched what it sent. */
export interface WatchedStream {
  readonly res: ServerResponse;
  readonly writes: string[];
}

/** The app, with the response of each change stream it serves kept for the test to look at. */
export function watchChangeStreams(listener: RequestListener): { listener: RequestListener; streams: WatchedStream[] } {
  const streams: WatchedStream[] = [];
  return {
    streams,
    listener: (req, res) => {
      if (req.method === 'GET' && req.url?.split('?')[0] === CHANGES) {
        const watched: WatchedStream = { res, writes: [] };
        streams.push(watched);
        const write = res.write.bind(res) as (...args: unknown[]) => boolean;
        res.write = ((chunk: unknown, ...rest: unknown[]) => {
          watched.writes.push(typeof chunk === 'string' ? chunk : String(chunk));
          return write(chunk, ...rest);
        }) as ServerResponse['write'];
      }
      listener(req, res);
    },
  };
}

export function dataOf(event: ServerSentEvent): Record<string, unknown> {
  return JSON.parse(event.data) as Record<string, unknown>;
}
