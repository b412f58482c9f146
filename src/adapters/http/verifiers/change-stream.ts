import type { AuthenticateService } from '../../../application/authentication/authenticate-service';
import type { CredentialChangeFeed } from '../../../application/ports/credential-change-feed';
import type { CredentialChange } from '../../../application/ports/credential-states';
import { ServiceUnavailable } from '../errors/http-error';
import type { NodeHandler } from '../fast-path/node-handler';
import { serviceKeyOf } from './service-guard';
import type { VerifierMetrics } from './verifier-metrics';

/** How often an idle stream carries a heartbeat; a verifier that hears nothing for a few of these gives up on it. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

export interface ChangeStreamOptions {
  readonly changes: CredentialChangeFeed;
  readonly authenticateService: AuthenticateService;
  readonly heartbeatMs: number;
  readonly metrics?: VerifierMetrics | undefined;
}

/** The wire form of a change: snake_case like the rest of the API, and the id the introspection answer named. */
function changeJson(change: CredentialChange): object {
  return change.kind === 'user' ? { kind: 'user', user_id: change.userId } : { kind: 'api_key', key_id: change.keyId };
}

/**
 * GET /api/v1/auth/changes: server-sent events. `ready` once subscribed (with the heartbeat
 * interval), `change` for each committed credential change, `heartbeat` when idle, and `reset`
 * just before the stream is closed because changes may have been missed. A verifier trusts what it
 * remembers only while its stream is open. When this instance itself is not hearing changes, the
 * stream is refused (503) rather than opened empty. The service key is checked again at every
 * heartbeat, so a revoked key loses its stream too.
 */
export function changeStream({ changes, authenticateService, heartbeatMs, metrics }: ChangeStreamOptions): NodeHandler {
  return (req, res) => {
    let open = true;
    const send = (event: string, data: object): void => {
      if (!open) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      metrics?.changeEvents.inc({ event });
    };
    const subscription = changes.subscribe({
      change: (change) => send('change', changeJson(change)),
      interrupted: () => {
        send('reset', {});
        end();
      },
    });
    if (!subscription) throw new ServiceUnavailable(new Error('change feed: this instance is not hearing credential changes'));

    const rawKey = serviceKeyOf(req);
    const heartbeat = setInterval(() => {
      authenticateService.execute(rawKey).then(() => send('heartbeat', {}), () => end());
    }, heartbeatMs);
    function end(): void {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      subscription!.unsubscribe();
      metrics?.changeStreams.dec();
      res.end();
    }
    res.once('close', end);

    metrics?.changeStreams.inc();
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Accel-Buffering', 'no'); // a buffering proxy would hold changes back
    res.flushHeaders();
    send('ready', { heartbeat_ms: heartbeatMs });
  };
}
