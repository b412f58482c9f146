/**
 * Keeps sessions' last_seen_at, as ApiKeyUsage keeps keys' last_used_at: called on every request
 * made with a session's token, it returns at once, never throws, and writes in batches off the
 * request's path. It also answers the latest use this instance itself has seen of a session, which
 * storage may not hold yet, so the idle timeout never refuses a session in use here.
 */
export interface SessionActivity {
  recordUse(tenantId: string, sessionId: string, at: Date): void;
  /** The latest use recorded on this instance; undefined when none is remembered. */
  lastUse(sessionId: string): Date | undefined;
}
