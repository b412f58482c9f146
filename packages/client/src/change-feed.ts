import type { Transport } from './http-transport';
import { SERVICE_KEY_HEADER } from './introspection-client';
import { SseParser } from './sse-parser';

/** What a change on the feed says to forget, and its change position (Portcullis's order of changes). */
export type CredentialChange =
  | { readonly kind: 'user'; readonly userId: string; readonly position: number }
  | { readonly kind: 'api_key'; readonly keyId: string; readonly position: number }
  | { readonly kind: 'session'; readonly sessionId: string; readonly position: number };

export interface ChangeFeedEvents {
  /** Subscribed at the instance's `position`: from now on no change after it is missed while the feed stays up. */
  up(position: number): void;
  change(change: CredentialChange): void;
  /** The feed is down (ended, reset, silent, refused): changes may go unheard until `up`. */
  down(reason: Error): void;
  /** The feed was closed by its owner (`close()`), while up: no error, and no change heard from now on. */
  closed(): void;
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

function isPosition(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseChange(data: string): CredentialChange | null {
  try {
    const value = JSON.parse(data) as { kind?: unknown; user_id?: unknown; key_id?: unknown; session_id?: unknown; position?: unknown };
    if (!isPosition(value.position)) return null;
    if (value.kind === 'user' && typeof value.user_id === 'string') return { kind: 'user', userId: value.user_id, position: value.position };
    if (value.kind === 'api_key' && typeof value.key_id === 'string') return { kind: 'api_key', keyId: value.key_id, position: value.position };
    if (value.kind === 'session' && typeof value.session_id === 'string') {
      return { kind: 'session', sessionId: value.session_id, position: value.position };
    }
  } catch {
    // fall through: unreadable
  }
  // Unreadable, or of a kind this version does not know (a newer Portcullis): either may have named
  // a credential remembered here, so the feed is dropped and everything forgotten (ChangeFeed.handle).
  return null;
}

/**
 * Portcullis's change feed (GET /api/v1/auth/changes), read as server-sent events, reconnecting
 * until closed. It reports `down` whenever changes could go unheard: the stream ends or fails,
 * Portcullis sends `reset`, heartbeats stop arriving, or an event cannot be read (whatever it was,
 * it may have been a change).
 */
export class ChangeFeed {
  private closed = false;
  private isUp = false;
  /** Ends the current connection, if there is one, reporting why (once per connection). */
  private drop: ((reason: Error) => void) | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private delayMs: number;
  private heartbeatMs = DEFAULT_HEARTBEAT_MS;

  constructor(private readonly options: ChangeFeedOptions, private readonly events: ChangeFeedEvents, private readonly transport: Transport) {
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
    const drop = this.drop;
    this.drop = undefined;
    drop?.(new Error('change feed closed'));
    clearTimeout(this.watchdog);
    const wasUp = this.isUp;
    this.isUp = false;
    if (wasUp) this.events.closed();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let stream: Awaited<ReturnType<Transport['openStream']>>;
    try {
      stream = await this.transport.openStream(new URL('/api/v1/auth/changes', this.options.url), {
        [SERVICE_KEY_HEADER]: this.options.serviceKey, accept: 'text/event-stream',
      });
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const { response, stop } = stream;
    let ended = false;
    const drop = (reason: Error): void => {
      if (ended) return;
      ended = true;
      if (this.drop === drop) this.drop = undefined;
      stop();
      if (!this.closed) this.fail(reason);
    };
    this.drop = drop;
    if (this.closed) {
      drop(new Error('change feed closed'));
      return;
    }
    if (response.statusCode !== 200) {
      drop(new Error(`change feed refused: HTTP ${response.statusCode}`));
      return;
    }
    response.setEncoding('utf8');
    const parser = new SseParser();
    response.on('data', (text: string) => {
      for (const event of parser.push(text)) {
        if (ended) return;
        let kept: boolean;
        try {
          kept = this.handle(event.event, event.data);
        } catch {
          kept = false; // an event that cannot be read may have been a change
        }
        if (!kept) drop(new Error(`change feed: ${event.event === 'reset' ? 'reset by Portcullis' : 'an event could not be read'}`));
      }
    });
    response.on('end', () => drop(new Error('change feed ended')));
    response.on('error', (error) => drop(error));
    response.on('close', () => drop(new Error('change feed ended')));
  }

  private fail(reason: Error): void {
    this.markDown(reason);
    this.scheduleReconnect();
  }

  /** False when the stream is no longer to be trusted. */
  private handle(event: string, data: string): boolean {
    this.armWatchdog();
    switch (event) {
      case 'ready': {
        const ready = JSON.parse(data) as { heartbeat_ms?: unknown; position?: unknown };
        if (!isPosition(ready.position)) return false;
        if (typeof ready.heartbeat_ms === 'number' && ready.heartbeat_ms > 0) this.heartbeatMs = ready.heartbeat_ms;
        this.armWatchdog();
        this.delayMs = this.options.minReconnectMs;
        this.isUp = true;
        this.events.up(ready.position);
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
    this.watchdog = setTimeout(() => this.drop?.(new Error('change feed: heartbeats stopped')), this.heartbeatMs * MISSED_HEARTBEATS + 1_000);
    this.watchdog.unref();
  }

  private markDown(reason: Error): void {
    clearTimeout(this.watchdog);
    this.isUp = false;
    if (!this.closed) this.events.down(reason);
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.options.maxReconnectMs);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
