import { createServer, type Server, type Socket, connect } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A TCP proxy between the service and a real server (Postgres), for cutting the network for real:
 * - `cut()` closes the listening socket and destroys every connection: new connections are
 *   refused, open ones die mid-conversation (the server sees its client vanish);
 * - `hang()` keeps accepting but holds back every byte in both directions (a partition, not a
 *   refusal: nothing is refused, nothing arrives);
 * - `restore()` listens again on the same port, delivers what was held back (as TCP would once a
 *   partition heals) and forwards as before;
 * - `cutWhenClientSends(text)` cuts the moment the client sends bytes containing `text`, before they
 *   are forwarded: a transaction caught between two statements;
 * - `delay(ms)` holds every chunk back for `ms` in each direction, in order (a slow network, or a
 *   database that answers late): a round trip costs twice `ms` more. Back to 0, what is held still
 *   leaves first.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private hanging = false;
  private readonly held: Array<() => void> = [];
  private trigger: { text: string; fired: () => void } | undefined;
  private delayMs = 0;

  private constructor(private readonly target: { host: string; port: number }, private port: number) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.restore();
    return proxy;
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Listens (again) on the proxy's port and forwards. */
  async restore(): Promise<void> {
    this.hanging = false;
    for (const deliver of this.held.splice(0)) deliver();
    if (this.server) return;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    this.held.length = 0;
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  hang(): void {
    this.hanging = true;
  }

  /** From now on every chunk, either way, is forwarded `ms` after it arrived (0: at once). */
  delay(ms: number): void {
    this.delayMs = ms;
  }

  /** Resolves once the cut has happened. */
  cutWhenClientSends(text: string): Promise<void> {
    return new Promise((resolve) => {
      this.trigger = { text, fired: resolve };
    });
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const send = (to: Socket, chunk: Buffer) => {
      if (this.hanging) this.held.push(() => to.destroyed || to.write(chunk));
      else if (!to.destroyed) to.write(chunk);
    };
    // Each direction's bytes leave in the order they came, even when the delay changes meanwhile:
    // a chunk never leaves before the one ahead of it (timers due at the same time fire in order).
    const due = new Map<Socket, number>();
    const held = new Map<Socket, number>();
    const forward = (to: Socket, chunk: Buffer) => {
      if (this.delayMs === 0 && !held.get(to)) {
        send(to, chunk);
        return;
      }
      const at = Math.max(performance.now() + this.delayMs, due.get(to) ?? 0);
      due.set(to, at);
      held.set(to, (held.get(to) ?? 0) + 1);
      setTimeout(() => {
        held.set(to, held.get(to)! - 1);
        send(to, chunk);
      }, Math.max(0, at - performance.now()));
    };
    const forget = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    client.on('data', (chunk: Buffer) => {
      const trigger = this.trigger;
      if (trigger && chunk.includes(trigger.text)) {
        this.trigger = undefined;
        void this.cut().then(trigger.fired);
        return;
      }
      forward(upstream, chunk);
    });
    upstream.on('data', (chunk: Buffer) => forward(client, chunk));
  }
}

/** Host and port of a postgres:// URL, and the same URL pointed at another port on 127.0.0.1. */
export function postgresTarget(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 5432) };
}

export function throughPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
