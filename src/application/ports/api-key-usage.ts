/**
 * Keeps API keys' last_used_at. Called on every request made with a key, so it must cost next to
 * nothing there: it returns at once, never throws, writes at most about once a minute per key and
 * never on the request's path; a failed write is reported to the log, not to the request.
 */
export interface ApiKeyUsage {
  recordUse(tenantId: string, keyId: string, at: Date): void;
}
