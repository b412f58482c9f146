import type { Logger } from 'pino';
import type { Config } from './config';

/**
 * In production, says loudly when the service serves with a login that could leave the tenant walls
 * (a superuser, the tables' owner, ...). It keeps serving: refusing would turn a configuration
 * weakness into an outage, and readiness is about whether the instance can serve, not how safely.
 * Outside production the owner's login is the normal set-up (development, tests), so nothing is said.
 */
export function warnAboutServingLogin(nodeEnv: Config['nodeEnv'], risks: readonly string[], logger: Logger): void {
  if (nodeEnv !== 'production' || risks.length === 0) return;
  logger.warn(
    { databaseLoginRisks: risks },
    `DATABASE_URL logs in with more power than the service needs (${risks.join('; ')}): one SQL injection could RESET ROLE ` +
      'and read every tenant or rewrite the audit trail. Serve with a login that is only a member of portcullis_app and ' +
      'migrate with MIGRATION_DATABASE_URL (docs/operations.md, "A least-privileged database login")',
  );
}
