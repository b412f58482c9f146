import { Client } from 'pg';
import { roleOption } from '../driver/role-option';
import { CREDENTIAL_CHANGES_CHANNEL } from './credential-announcements';
import { READ_CHANGE_HEAD_ROW } from '../migrations/0017-change-head-readable';

export interface CredentialChangeEvents {
  /** A transaction that changed credentials committed (another instance's, an operator's, or this one's): the change log has grown. */
  onNotified(): void;
  /** Listening (again): changes made while not listening may have gone unheard, so forget everything. */
  onListening(): void;
  /** The connection is gone: until onListening, changes go unheard, so remember nothing. */
  onLost(): void;
  onError(error: unknown): void;
}

export interface ListenerTiming {
  /** Wait before each reconnection attempt. */
  readonly retryMs: number;
  /** A query on the listening connection this often, so a silently dead connection is noticed. */
  readonly heartbeatMs: number;
  /** How the connection shows in pg_stat_activity. */
  readonly applicationName?: string;
}

export interface ListenerConnection {
  readonly connectionString: string;
  /**
   * The role the connection takes at start-up (the pool's, so its one statement, the head read, runs
   * with the app role's grants and nothing more); unset, it acts as the login.
   */
  readonly role?: string;
}

/**
 * Whatever the payload (empty from the triggers; an operator's or an older version's text), a
 * notification only says "read the log": nothing on the channel is trusted or needed.
 */
export function deliver(events: CredentialChangeEvents, _payload: string): void {
  events.onNotified();
}

/** Hears the channel until closed: the shape both listeners (Postgres, PGlite) share. */
export interface ChangeListener {
  start(): Promise<void>;
  close(): Promise<void>;
  /**
   * The change log's head, read on the listener's own connection; undefined while it is not
   * listening (the caller reads it some other way). Absent where the listener has no connection of
   * its own (PGlite).
   */
  readHead?(): Promise<number> | undefined;
}

/**
 * A named prepared statement: parsed and planned once per connection, then only bound and run, and
 * built by no query builder. The row arrives as an array (int8 as a string), the cheapest shape pg gives.
 */
const HEAD_QUERY = { name: 'portcullis_change_head', text: READ_CHANGE_HEAD_ROW, rowMode: 'array' } as const;

const DEFAULT_TIMING: ListenerTiming = { retryMs: 1_000, heartbeatMs: 5_000 };
const APPLICATION_NAME = 'portcullis-credential-listener';
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * LISTENs for committed credential changes on a dedicated connection: a pooled one would be handed
 * to other work and LISTEN would end with its session. LISTEN needs no privilege on any table. It
 * reconnects on its own until closed.
 *
 * The same connection answers the freshness check's head reads (readHead): it is already open and
 * idle between notifications, so a round costs no pool checkout, and a round that runs while the
 * connection is down is never answered from it.
 */
export class CredentialChangeListener implements ChangeListener {
  private client: Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  private readonly connection: ListenerConnection;

  constructor(
    connection: string | ListenerConnection,
    private readonly events: CredentialChangeEvents,
    private readonly timing: ListenerTiming = DEFAULT_TIMING,
  ) {
    this.connection = typeof connection === 'string' ? { connectionString: connection } : connection;
  }

  /** Resolves once listening; rejects if the first connection fails (the service should not start). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Only while listening: a connection that is being replaced may have missed commits. */
  readHead(): Promise<number> | undefined {
    return this.client?.query<[string]>(HEAD_QUERY).then(({ rows }) => Number(rows[0]?.[0] ?? 0));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { connectionString, role } = this.connection;
    const client = new Client({
      connectionString,
      ...(role === undefined ? {} : { options: roleOption(role) }),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: this.timing.heartbeatMs,
      keepAlive: true,
      application_name: this.timing.applicationName ?? APPLICATION_NAME,
    });
    client.on('notification', ({ channel, payload }) => {
      if (channel === CREDENTIAL_CHANGES_CHANNEL) deliver(this.events, payload ?? '');
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CREDENTIAL_CHANGES_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.events.onListening();
    this.heartbeat = setInterval(() => {
      client.query('select 1').catch((error: unknown) => this.lost(client, error));
    }, this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  private lost(client: Client, error?: unknown): void {
    if (this.client !== client) return; // already handled, or closed on purpose
    this.client = null;
    clearInterval(this.heartbeat);
    this.events.onLost();
    if (error !== undefined) this.events.onError(error);
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.events.onError(error);
        this.scheduleReconnect();
      });
    }, this.timing.retryMs);
    this.retry.unref();
  }
}
