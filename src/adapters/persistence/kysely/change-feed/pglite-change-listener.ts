import { type ChangeListener, type CredentialChangeEvents, deliver } from './credential-change-listener';
import { CREDENTIAL_CHANGES_CHANNEL } from './credential-announcements';

/** PGlite's own LISTEN: the callback runs in this process when a transaction that notified commits. */
export type InProcessListen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

/**
 * The embedded database's change listener. Every writer of an embedded database is in this
 * process (the service, a migration, a test's SQL), and PGlite delivers the triggers' notifications
 * to the session that listens, so the cache hears every committed change exactly as on Postgres.
 * There is no connection to lose.
 */
export class PgliteChangeListener implements ChangeListener {
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly listen: InProcessListen, private readonly events: CredentialChangeEvents) {}

  async start(): Promise<void> {
    this.unlisten = await this.listen(CREDENTIAL_CHANGES_CHANNEL, (payload) => deliver(this.events, payload));
    this.events.onListening();
  }

  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
  }
}
