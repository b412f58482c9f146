import { SERVICE_KEY_HEADER } from './introspection-client';
import { SseParser } from './sse-parser';

/** What a change on the feed says to forget. */
export type CredentialChange =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'api_key'; readonly keyId: string };

export interface ChangeFeedEvents {
  /** Subscribed: from now on no change is missed while the feed stays up. */
  up(): void;
  change(change: CredentialChange): void;
  /** The feed is down (closed, reset, silent, refused): changes may go unheard until `up`. */
  down(reason: Error): void;
}

export interface ChangeFeedOptions {
  readonly url: string;
  readonly serviceKey: string;
  /** First wait before reconnecting; doubled after each failure up to `maxReconnectMs`. */
  readonly minReconnectMs: number;
  readonly maxReconnectMs: number;
}

/** Heartbeats that may be missed before the stream is taken for dead. */
const MISSED_HEARTBEATS = 2;
const DEFAULT_HEARTBEAT_MS = 15_000;

function parseChange(data: string): CredentialChange | null {
  try {
    const value = JSON.parse(data) as { kind?: unknown; user_id?: unknown; key_id?: unknown };
    if (value.kind === 'user' && typeof value.user_id === 'string') return { kind: 'user', userId: value.user_id };
    if (value.kind === 'api_key' && typeof value.key_id === 'string') return { kind: 'api_key', keyId: value.key_id };
  } catch {
    // fall through: unreadable
  }
  return null;
}

/**
 * Portcullis's change feed (GET /api/v1/auth/changes), read as server-sent events over fetch's
 * body stream, reconnecting until closed. It reports `down` whenever changes could go unheard: the
 * stream ends or fails, Portcullis sends `reset`, heartbeats stop arriving, or an event cannot be
 * read (whatever it was, it may have been a change).
 */
export class ChangeFeed {
  private closed = false;
  private isUp = false;
  private abort: AbortController | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private delayMs: number;
  private heartbeatMs = DEFAULT_HEARTBEAT_MS;

  constructor(private readonly options: ChangeFeedOptions, private readonly events: ChangeFeedEvents) {
    this.delayMs = options.minReconnectMs;
  }

  get connected(): boolean {
    return this.isUp;
  }

  start(): void {
    void this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.watchdog);
    this.abort?.abort();
    this.markDown(new Error('change feed closed'));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const abort = new AbortController();
    this.abort = abort;
    try {
      const res = await fetch(new URL('/api/v1/auth/changes', this.options.url), {
        headers: { [SERVICE_KEY_HEADER]: this.options.serviceKey, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`change feed refused: HTTP ${res.status}`);
      }
      await this.read(res.body.getReader());
      throw new Error('change feed ended');
    } catch (error) {
      abort.abort();
      this.markDown(error instanceof Error ? error : new Error(String(error)));
      this.scheduleReconnect();
    }
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parser = new SseParser();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (!this.handle(event.event, event.data)) {
          await reader.cancel().catch(() => undefined);
          return;
        }
      }
    }
  }

  /** False when the stream is no longer to be trusted. */
  private handle(event: string, data: string): boolean {
    this.armWatchdog();
    switch (event) {
      case 'ready': {
        const heartbeat = (JSON.parse(data) as { heartbeat_ms?: unknown }).heartbeat_ms;
        if (typeof heartbeat === 'number' && heartbeat > 0) this.heartbeatMs = heartbeat;
        this.armWatchdog();
        this.delayMs = this.options.minReconnectMs;
        this.isUp = true;
        this.events.up();
        return true;
      }
      case 'change': {
        const change = parseChange(data);
        if (!change) return false;
        this.events.change(change);
        return true;
      }
      case 'heartbeat':
        return true;
      default: // 'reset', or an event this version does not know
        return false;
    }
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    if (this.closed) return;
    this.watchdog = setTimeout(() => this.abort?.abort(new Error('change feed: heartbeats stopped')), this.heartbeatMs * MISSED_HEARTBEATS + 1_000);
    this.watchdog.unref();
  }

  private markDown(reason: Error): void {
    clearTimeout(this.watchdog);
    const wasUp = this.isUp;
    this.isUp = false;
    if (wasUp || !this.closed) this.events.down(reason);
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.options.maxReconnectMs);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
