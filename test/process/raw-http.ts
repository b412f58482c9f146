import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A socket of our own, so a test decides when each byte of a request goes out and sees when the server hangs up. */
export class RawConnection {
  private received = '';
  private waiting: (() => void) | undefined;
  readonly closed: Promise<number>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.received += text;
      this.waiting?.();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => {
      this.waiting?.();
      resolve(Date.now());
    }));
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.socket.destroyed;
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next complete response (headers and a Content-Length body). */
  async response(timeoutMs = 20_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseOne(this.received);
      if (parsed) {
        this.received = this.received.slice(parsed.length);
        return parsed.response;
      }
      if (this.socket.destroyed) throw new Error(`connection closed before a full response: ${JSON.stringify(this.received)}`);
      if (Date.now() > deadline) throw new Error('no response in time');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
  }
}

function parseOne(text: string): { response: RawResponse; length: number } | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyStart = end + 4;
  if (Buffer.byteLength(text.slice(bodyStart)) < length) return null;
  const body = Buffer.from(text.slice(bodyStart)).subarray(0, length).toString('utf8');
  return { response: { status: Number(statusLine!.split(' ')[1]), headers, body }, length: bodyStart + body.length };
}

export function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
}

/** A JSON POST's head and body, to be written separately. */
export function post(path: string, body: unknown): { head: string; body: string } {
  const json = JSON.stringify(body);
  return {
    head: `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n`,
    body: json,
  };
}

/** Whether a new connection to the port is refused. */
export async function refusesConnections(port: number): Promise<boolean> {
  try {
    const connection = await RawConnection.open(port);
    connection.socket.destroy();
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}
