import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const CHANGES_PATH = '/api/v1/auth/changes';

interface OpenStream {
  readonly serviceKey: string | undefined;
  readonly res: ServerResponse;
  /** Settles once the last event written has been handed to the socket, or the stream is gone. */
  written: Promise<void>;
  readonly closed: Promise<void>;
}

function isChangeStream(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.url ?? '').split('?')[0] === CHANGES_PATH;
}

function serviceKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-service-key'];
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The change streams (GET /api/v1/auth/changes) the kit's server has open, watched from outside the
 * app: which are open and for which service key, what they have carried, and when what was written
 * has left for the socket. The app's own stream handler is untouched; the kit only looks at what it
 * writes, so the fake sends exactly what the service sends.
 */
export class ChangeStreams {
  private readonly open = new Set<OpenStream>();
  private carriedCount = 0;

  /** Streams that have sent `ready`: a verifier following them trusts what it remembers. */
  get count(): number {
    return this.open.size;
  }

  /** How many things the streams have carried that a verifier acts on: a `change` event each, a `reset`, or a stream's end. */
  get carried(): number {
    return this.carriedCount;
  }

  /** The app, with its change streams watched. */
  watch(listener: RequestListener): RequestListener {
    return (req, res) => {
      if (isChangeStream(req)) this.follow(req, res);
      listener(req, res);
    };
  }

  /** Resolves once everything written so far on every open stream has been handed to its socket. */
  async written(): Promise<void> {
    await Promise.all([...this.open].map((stream) => Promise.race([stream.written, stream.closed])));
  }

  /** Ends the streams of one service key, or every stream, and resolves once they are closed. */
  async end(serviceKey?: string): Promise<void> {
    const ending = [...this.open].filter((stream) => serviceKey === undefined || stream.serviceKey === serviceKey);
    for (const stream of ending) stream.res.end();
    await Promise.all(ending.map((stream) => stream.closed));
  }

  private follow(req: IncomingMessage, res: ServerResponse): void {
    const stream: OpenStream = {
      serviceKey: serviceKeyOf(req),
      res,
      written: Promise.resolve(),
      closed: new Promise<void>((resolve) => res.once('close', () => resolve())),
    };
    void stream.closed.then(() => {
      if (this.open.delete(stream)) this.carriedCount += 1;
    });
    // One write is one event, or one batch of change events (change-stream.ts); its callback runs once the bytes are on their way.
    const write = res.write.bind(res) as (chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void) => boolean;
    res.write = ((chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
      const text = typeof chunk === 'string' ? chunk : String(chunk);
      if (text.startsWith('event: ready')) this.open.add(stream);
      else if (text.startsWith('event: change')) this.carriedCount += text.split('event: change\n').length - 1;
      else if (text.startsWith('event: reset')) this.carriedCount += 1;
      const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback as BufferEncoding : 'utf8';
      const done = (typeof encodingOrCallback === 'function' ? encodingOrCallback : callback) as ((error?: Error | null) => void) | undefined;
      let settle!: () => void;
      stream.written = new Promise<void>((resolve) => { settle = resolve; });
      return write(chunk, encoding, (error) => {
        settle();
        done?.(error);
      });
    }) as ServerResponse['write'];
  }
}
