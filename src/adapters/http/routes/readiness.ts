/** What /readyz reports: each check by name ("database": "ok", "migrations": "pending: 0003-x", ...). */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
}

/**
 * The HTTP adapter's port for readiness: whether this instance should be sent traffic now. The
 * composition root implements it (database, migrations, Redis, shutdown); the adapter only answers.
 * It must settle within a few seconds however its dependencies behave.
 */
export interface Readiness {
  check(): Promise<ReadinessReport>;
}

/** For an app built without a probe (tests, tools): nothing to wait for. */
export const ALWAYS_READY: Readiness = { check: async () => ({ ready: true, checks: {} }) };
