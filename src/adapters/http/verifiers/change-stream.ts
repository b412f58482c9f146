import type { ServerResponse } from 'node:http';
import type { AuthenticateService } from '../../../application/authentication/authenticate-service';
import type { CredentialChangeFeed } from '../../../application/ports/credential-change-feed';
import type { LoggedChange } from '../../../application/ports/credential-change-log';
import { scopeCovers, type ServiceCaller } from '../../../domain/service-key';
import { HttpError, ServiceUnavailable } from '../errors/http-error';
import type { Answer } from '../routes/route';
import { serviceKeyOf } from './service-guard';
import type { VerifierMetrics } from './verifier-metrics';

/** How often an idle stream carries a heartbeat; a verifier that hears nothing for a few of these gives up on it. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

export interface ChangeStreamLimits {
  /** Streams one service key may hold open on this instance. */
  readonly perServiceKey: number;
  /** Streams open on this instance, every service key together. */
  readonly perInstance: number;
  /**
   * Bytes written to a stream that its reader has not yet taken, past which the stream is closed
   * with `reset`: the reader would be told of changes later and later, and each instance would
   * hold more and more for it. What one stream can cost the instance is bounded by this.
   */
  readonly maxUnsentBytes: number;
}

export const DEFAULT_CHANGE_STREAM_LIMITS: ChangeStreamLimits = { perServiceKey: 64, perInstance: 512, maxUnsentBytes: 128 * 1024 };

/** Seconds a refused stream is asked to wait before it tries again. */
const RETRY_AFTER_SECONDS = 5;

/** Too many streams open: for the calling service key, or on this instance. */
export class TooManyChangeStreams extends HttpError {
  override readonly retryAfterSeconds = RETRY_AFTER_SECONDS;

  constructor(of: 'service key' | 'instance') {
    super(429, of === 'service key' ? 'Too many change streams for this service key' : 'Too many change streams on this instance');
  }
}

export interface ChangeStreamOptions {
  readonly changes: CredentialChangeFeed;
  readonly authenticateService: AuthenticateService;
  readonly heartbeatMs: number;
  readonly limits: ChangeStreamLimits;
  readonly metrics?: VerifierMetrics | undefined;
}

/** The changes a verifier hears of: each names its tenant. */
type Announced = Extract<LoggedChange, { kind: 'user' | 'api-key' | 'session' }>;

function isAnnounced(change: LoggedChange): change is Announced {
  return change.kind === 'user' || change.kind === 'api-key' || change.kind === 'session';
}

/** The wire form of a change: snake_case like the rest of the API, the id the introspection answer named, and its position. */
function changeEvent(change: Announced): string {
  const { position } = change;
  const data = change.kind === 'user' ? { kind: 'user', user_id: change.userId, position }
    : change.kind === 'api-key' ? { kind: 'api_key', key_id: change.keyId, position }
      : { kind: 'session', session_id: change.sessionId, position };
  return `event: change\ndata: ${JSON.stringify(data)}\n\n`;
}

function subjectOf(change: Announced): string {
  return change.kind === 'user' ? `u${change.userId}` : change.kind === 'api-key' ? `k${change.keyId}` : `s${change.sessionId}`;
}

/**
 * One batch's events for one stream, in one string: the changes the stream may hear, each member,
 * key or session once (at its last position in the batch: forgetting it once is all a verifier needs).
 */
function batchEvents(batch: readonly LoggedChange[], hears: (change: Announced) => boolean): { text: string; count: number } {
  const last = new Map<string, Announced>();
  for (const change of batch) {
    if (!isAnnounced(change) || !hears(change)) continue;
    const subject = subjectOf(change);
    last.delete(subject);
    last.set(subject, change);
  }
  let text = '';
  for (const change of last.values()) text += changeEvent(change);
  return { text, count: last.size };
}

/** Streams of keys that see every tenant write the same text for a batch: made once per batch. */
const everyTenantsText = new WeakMap<readonly LoggedChange[], { text: string; count: number }>();

function eventsFor(batch: readonly LoggedChange[], caller: ServiceCaller): { text: string; count: number } {
  if (caller.scope.kind === 'tenants') {
    const { scope } = caller;
    return batchEvents(batch, (change) => scopeCovers(scope, change.tenantId));
  }
  let events = everyTenantsText.get(batch);
  if (!events) {
    events = batchEvents(batch, () => true);
    everyTenantsText.set(batch, events);
  }
  return events;
}

/**
 * GET /api/v1/auth/changes: server-sent events. `ready` once subscribed (with the heartbeat
 * interval and the instance's change position), `change` for each committed credential change of
 * a tenant the service key may see (a member, key or session, with its position), `heartbeat` when idle, and `reset` just
 * before the stream is closed because changes may have been missed. A verifier trusts what it
 * remembers only while its stream is open.
 *
 * - Changes are written in batches: whatever the instance read from the change log at once is one
 *   write, each member or key named once.
 * - When this instance itself is not hearing changes, the stream is refused (503) rather than
 *   opened empty.
 * - At most `limits.perServiceKey` streams per key and `limits.perInstance` in all (429 beyond).
 * - A stream whose reader falls behind by more than `limits.maxUnsentBytes` is sent `reset` and
 *   closed; if even that is not taken by the next heartbeat, its connection is cut.
 * - When its service key is revoked (or its scope changed), the stream is sent `reset` and closed
 *   as soon as the instance applies that change; the key is also checked again at every heartbeat.
 */
export function changeStream({ changes, authenticateService, heartbeatMs, limits, metrics }: ChangeStreamOptions): (caller: ServiceCaller) => Answer {
  const openPerKey = new Map<string, number>();
  let openInAll = 0;

  return (caller) => ({ stream: (req, res) => {
    const ofKey = openPerKey.get(caller.serviceKeyId) ?? 0;
    if (openInAll >= limits.perInstance) {
      metrics?.changeStreamsRefused.inc({ reason: 'instance' });
      throw new TooManyChangeStreams('instance');
    }
    if (ofKey >= limits.perServiceKey) {
      metrics?.changeStreamsRefused.inc({ reason: 'service_key' });
      throw new TooManyChangeStreams('service key');
    }

    let open = true;
    let closing = false;
    const write = (event: string, text: string, count = 1): void => {
      if (!open || closing) return;
      if (res.writableLength + text.length > limits.maxUnsentBytes) {
        closeWithReset('slow_reader');
        return;
      }
      res.write(text);
      metrics?.changeEvents.inc({ event }, count);
    };
    const send = (event: string, data: object): void => write(event, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    const subscription = changes.subscribe({
      changes: (batch) => {
        for (const change of batch) {
          if (change.kind === 'service-key' && change.serviceKeyId === caller.serviceKeyId) {
            closeWithReset('service_key');
            return;
          }
        }
        const events = eventsFor(batch, caller);
        if (events.count > 0) write('change', events.text, events.count);
      },
      interrupted: () => closeWithReset('reset'),
    });
    if (!subscription) throw new ServiceUnavailable(new Error('change feed: this instance is not hearing credential changes'));
    openInAll += 1;
    openPerKey.set(caller.serviceKeyId, ofKey + 1);
    metrics?.changeStreams.inc();

    const rawKey = serviceKeyOf(req);
    const heartbeat = setInterval(() => {
      if (closing) {
        // The reader has not taken even the reset: let go of what is held for it.
        if (!res.writableFinished) res.destroy();
        return;
      }
      authenticateService.execute(rawKey).then(() => send('heartbeat', {}), () => closeWithReset('service_key'));
    }, heartbeatMs);

    function closeWithReset(reason: string): void {
      if (!open || closing) return;
      closing = true;
      subscription!.unsubscribe();
      if (reason !== 'reset') metrics?.changeStreamsClosed.inc({ reason });
      res.write('event: reset\ndata: {}\n\n');
      metrics?.changeEvents.inc({ event: 'reset' });
      res.end();
    }
    function ended(): void {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      subscription!.unsubscribe();
      openInAll -= 1;
      const left = (openPerKey.get(caller.serviceKeyId) ?? 1) - 1;
      if (left > 0) openPerKey.set(caller.serviceKeyId, left);
      else openPerKey.delete(caller.serviceKeyId);
      metrics?.changeStreams.dec();
    }
    res.once('close', ended);

    startEventStream(res);
    send('ready', { heartbeat_ms: heartbeatMs, position: subscription.position });
  } });
}

function startEventStream(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no'); // a buffering proxy would hold changes back
  res.flushHeaders();
}
