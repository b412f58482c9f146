import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AuditTrail } from '../application/audit/audit-trail';
import type { ApiKeyUsage } from '../application/ports/api-key-usage';
import type { Clock } from '../application/ports/clock';
import type { CommonPasswords } from '../application/ports/common-passwords';
import type { IdGenerator } from '../application/ports/ids';
import type { LoginThrottle } from '../application/ports/login-throttle';
import type { SsoAddresses } from '../application/sso/sso-settings';
import type { Mailer } from '../application/ports/mailer';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { Secrets } from '../application/ports/secrets';
import type { TokenService } from '../application/ports/token-service';
import type { UseCases } from '../application/use-cases';
import { RecordSigningKeys } from '../application/signing-keys/record-signing-keys';
import { BatchedApiKeyUsage } from '../adapters/cache/batched-api-key-usage';
import { BatchedSessionActivity } from '../adapters/cache/batched-session-activity';
import type { SessionActivity } from '../application/ports/session-activity';
import { type JwtKeySet, jwtKey, signingKeyRecords } from '../adapters/crypto/jwt-signing-keys';
import { JwtTokenService, type VerifiedTokenOptions } from '../adapters/crypto/jwt-token-service';
import { HmacDeviceProofs } from '../adapters/crypto/hmac-device-proofs';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { createApp } from '../adapters/http/app';
import type { Route } from '../adapters/http/routes/route';
import { developmentMailboxRoutes } from '../adapters/http/routes/development-mailbox-routes';
import { DevelopmentMailbox } from '../adapters/mail/development-mailbox';
import type { ConsoleFiles } from '../adapters/http/console/console-files';
import type { HttpMetrics } from '../adapters/http/middleware/http-metrics';
import type { RateLimitStoreFactory } from '../adapters/http/middleware/rate-limits';
import type { Readiness } from '../adapters/http/routes/readiness';
import { PackagedCommonPasswords } from '../adapters/passwords/packaged-common-passwords';
import type { ListenerTiming } from '../adapters/persistence/kysely/change-feed/credential-change-listener';
import { MemoryLoginThrottle } from '../adapters/rate-limit/memory-login-throttle';
import { RedisLoginThrottle } from '../adapters/rate-limit/redis-login-throttle';
import { redisRateLimitStores } from '../adapters/rate-limit/redis-rate-limit-store';
import { SystemClock } from '../adapters/time/system-clock';
import { type CredentialFeed, openCredentialFeed } from './change-feed';
import { Closeables } from './closeables';
import type { Config } from './config';
import { type OpenedStorage, openStorage } from './database';
import { mailerOf } from './mailer';
import { MailWorker } from './mail-worker';
import { SmtpMailer } from '../adapters/mail/smtp-mailer';
import { mailSendLimitsOf } from './mail-send-limits';
import { MailDelivery } from '../application/mail/mail-delivery';
import { renderStoredMail } from '../application/mail/render-mail';
import { DEFAULT_DEVELOPMENT_PUBLIC_URL } from './config';
import { relyingPartyOf, SimpleWebAuthnCeremonies } from '../adapters/webauthn/simple-webauthn-ceremonies';
import { OpenIdClientProviders } from '../adapters/oidc/openid-client-providers';
import { NodeDnsTxtRecords } from '../adapters/dns/node-dns-txt-records';
import type { DnsTxtRecords } from '../application/ports/dns-txt-records';
import { AUTH_BASE } from '../adapters/http/routes/identity-routes';
import { createMetrics } from './metrics';
import { composeModules, moduleMigrationsOf } from './modules/compose-modules';
import { identityModule } from './modules/identity-module';
import type { PortcullisModule } from './modules/portcullis-module';
import { readinessProbe } from './readiness';
import { closeRedis, openRedis } from './redis';
import { buildUseCases } from './wire';
import { createHash } from 'node:crypto';
import { AesGcmFactorSecrets } from '../adapters/crypto/aes-gcm-factor-secrets';
import { OtpauthAuthenticatorCodes } from '../adapters/crypto/otpauth-authenticator-codes';
import type { FactorSecrets } from '../application/ports/factor-secrets';
import type { TotpFactorRepository } from '../application/ports/repositories';
import { StartRefused } from './start-refused';
import type { LoginFailurePolicy } from '../application/ports/login-throttle';
import { SecondFactorsNotConfigured } from '../domain/errors';

/** A readiness check that takes longer than this counts as failed. */
const READINESS_TIMEOUT_MS = 2_000;

/**
 * What a caller may choose instead of what the configuration says. main chooses the logger and the
 * shutdown flag; the test kit memory storage, its clock and a cheap hasher; a test what it is
 * about (a throttle that fails, a storage that breaks). Everything unset is production's choice.
 */
export interface AssemblyParts {
  /** The product modules served after identity. */
  readonly modules?: readonly PortcullisModule[];
  /** Opened elsewhere (memory storage: openMemoryStorage); unset, opened from the configuration. */
  readonly storage?: OpenedStorage;
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  /** Unset: HS256 tokens signed with the configured keys. The test kit's own rotates them at a test's word. */
  readonly tokens?: TokenService;
  /** Unset: the list shipped with the service, loaded on first use (only under PASSWORD_POLICY=strict). */
  readonly commonPasswords?: CommonPasswords;
  readonly ids?: IdGenerator;
  readonly secrets?: Secrets;
  /** Unset: SMTP when SMTP_URL is set, else the development mailbox outside production, else none (mailer.ts). */
  readonly mailer?: Mailer;
  /** Unset: Redis when REDIS_URL is set, else counted in this process. */
  readonly loginThrottle?: LoginThrottle;
  /** Wrong second-factor proofs; unset, as loginThrottle with SECOND_FACTOR_FAILURES. */
  readonly secondFactorThrottle?: LoginThrottle;
  /** Where domains' TXT records are read; node:dns unless given (tests publish records in memory). */
  readonly dnsTxtRecords?: DnsTxtRecords;
  /** Unset: batched writes of last_used_at, flushed when the assembly closes. */
  readonly keyUsage?: ApiKeyUsage;
  /** Unset: batched writes of sessions' last_seen_at, at the key usage's interval, flushed when the assembly closes. */
  readonly sessionActivity?: SessionActivity;
  /** The request log and the error log; unset, no request log, and errors go to `onError`. */
  readonly logger?: Logger;
  /** Where what is opened is registered for closing (main's, so a shutdown closes it in order); unset, the assembly's own. */
  readonly closeables?: Closeables;
  /** Told of every error the app answers 500 or 503 for. */
  readonly onError?: (error: unknown) => void;
  /** Off-request-path failures (change log, key usage writes); the logger, or the console, when unset. */
  readonly onBackgroundError?: (error: unknown) => void;
  /** From the shutdown signal on, /readyz answers 503. */
  readonly isShuttingDown?: () => boolean;
  /** The console's files; unset, read from console/dist (none when not built); null, none. */
  readonly consoleFiles?: ConsoleFiles | null;
  /** How long a verified service key is trusted before storage is read again. */
  readonly serviceKeyTrustMs?: number;
  /** How often an idle change stream carries a heartbeat. */
  readonly changeHeartbeatMs?: number;
  /** The change listener's reconnection and heartbeat timing (tests shorten it). */
  readonly listenerTiming?: ListenerTiming;
  /** Where each rate limiter counts; unset, Redis when REDIS_URL is set, else this process. */
  readonly rateLimitStore?: RateLimitStoreFactory;
  /** Requests measured on these metrics; unset, a registry of the assembly's own when METRICS_ENABLED. */
  readonly metrics?: HttpMetrics;
  /** What /readyz asks; unset, the database, Redis and the shutdown flag. */
  readonly readiness?: Readiness;
}

/** The assembled service: what main serves, and what the test kit and the tests drive. */
export interface Assembly {
  /** The HTTP request listener: identity, the platform's routes and the modules'. */
  readonly listener: RequestListener;
  /** Every route the listener serves, as declared. */
  readonly routes: readonly Route[];
  readonly useCases: UseCases;
  readonly storage: OpenedStorage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  /** How e-mail is sent; undefined in production when SMTP_URL is unset. */
  readonly mailer: Mailer | undefined;
  /**
   * Delivers the outbox through the mailer (undefined with no mailer): main starts it polling; the
   * test kit and tests run a pass when they want one (`deliverNow`). Stopped by `close`.
   */
  readonly mailWorker: MailWorker | undefined;
  /** The credential cache and the instance's change position (the test kit waits on it). */
  readonly feed: CredentialFeed;
  /** Where last_used_at goes (tests flush it as the instance would at the end of its interval). */
  readonly keyUsage: ApiKeyUsage & { flush?(): Promise<void> };
  /** Where sessions' last_seen_at goes (tests flush it as the instance would at the end of its interval). */
  readonly sessionActivity: SessionActivity & { flush?(): Promise<void> };
  /** Set when metrics are enabled: main serves them on a port of their own when METRICS_PORT is set. */
  readonly metrics: HttpMetrics | undefined;
  /** How tokens are signed and verified (tests read a token's claims through it). */
  readonly tokens: TokenService;
  /** Lets go of everything assembled, in the reverse order of opening: key usage is written before the database closes. */
  close(): Promise<void>;
}

/**
 * The one composition root: the service from its configuration, with `parts` chosen instead where
 * given. main, the test kit, the tests' database-backed apps and the benchmark's service all call
 * this, so each runs the wiring production runs. A failure part-way closes what was opened.
 */
export async function assemble(config: Config, parts: AssemblyParts = {}): Promise<Assembly> {
  const closeables = parts.closeables ?? new Closeables();
  const close = async (): Promise<void> => {
    await closeables.closeAll();
  };
  const { logger } = parts;
  const failed = (what: string) => parts.onBackgroundError
    ?? ((error: unknown) => (logger ? logger.error({ err: error }, what) : console.error(`${what}:`, error)));
  try {
    const modules = parts.modules ?? [];
    // Opened first: if it is unreachable, nothing else has been opened yet.
    const redis = config.redisUrl ? await openRedis(config.redisUrl, failed('redis')) : undefined;
    if (redis) closeables.add('redis', () => closeRedis(redis));

    const storage = parts.storage ?? await openStorage(
      config, (error) => logger?.warn({ err: error }, 'postgres: idle connection lost'), moduleMigrationsOf(modules),
    );
    closeables.add('database', () => storage.storage.close());

    const feed = await openCredentialFeed(
      storage.listenForChanges, storage.storage, failed('credential changes'), parts.listenerTiming, config.credentialCache,
      undefined, storage.shared ? { timeoutMs: config.freshnessTimeoutMs } : undefined,
    );
    closeables.add('credential listener', () => feed.close());

    const clock = parts.clock ?? new SystemClock();
    const ids = parts.ids ?? new RandomUuidGenerator();
    const secrets = parts.secrets ?? new NodeSecrets();
    const mailer = parts.mailer ?? mailerOf(config, logger);
    if (mailer instanceof SmtpMailer) closeables.add('smtp', () => mailer.close());
    const keyUsage = parts.keyUsage
      ?? new BatchedApiKeyUsage(storage.storage.repos.apiKeys, clock, failed('api key usage'), config.apiKeyUsage);
    if (keyUsage instanceof BatchedApiKeyUsage) closeables.add('api key usage', () => keyUsage.close());
    const sessionActivity = parts.sessionActivity
      ?? new BatchedSessionActivity(storage.storage.repos.sessions, clock, failed('session activity'), config.apiKeyUsage);
    if (sessionActivity instanceof BatchedSessionActivity) closeables.add('session activity', () => sessionActivity.close());

    const signingKeys = signingKeysOf(config, logger);
    const tokens = parts.tokens ?? configuredTokens(signingKeys, config.verifiedTokens, logger);
    // Before serving: a change of the key set is in the audit trail by the time any token of it is.
    const keyChanges = await new RecordSigningKeys({ unitOfWork: storage.storage.unitOfWork, trail: new AuditTrail({ ids, clock }), clock })
      .execute(signingKeyRecords(signingKeys));
    if (keyChanges.length > 0) logger?.info({ changes: keyChanges }, 'token signing keys changed since the last start: recorded in the audit trail');
    const useCases = await buildUseCases(storage.storage, {
      hasher: parts.hasher ?? new ScryptPasswordHasher(),
      tokens,
      ids,
      secrets,
      clock,
      loginThrottle: parts.loginThrottle ?? loginThrottleOf(config, redis, clock),
      // Signed with a key of their own derived from the signing secrets, so they rotate with them.
      deviceProofs: HmacDeviceProofs.fromKeySet(signingKeys, clock),
      credentials: feed.credentials,
      keyUsage,
      sessionActivity,
      credentialChanges: feed.changes,
      changePositions: feed.positions,
      freshness: feed.freshness,
      serviceKeys: storage.serviceKeys,
      mailEnabled: mailer !== undefined,
      onBackgroundError: failed('background work'),
      commonPasswords: parts.commonPasswords ?? new PackagedCommonPasswords(),
      // The relying party is where people reach the service: credentials are bound to its host and origin.
      webauthn: new SimpleWebAuthnCeremonies(relyingPartyOf(config.publicUrl ?? DEFAULT_DEVELOPMENT_PUBLIC_URL)),
      authenticatorCodes: new OtpauthAuthenticatorCodes(),
      factorSecrets: await factorSecretsOf(config, storage.storage.repos.totpFactors, logger),
      secondFactorThrottle: parts.secondFactorThrottle ?? loginThrottleOf(config, redis, clock, SECOND_FACTOR_FAILURES, 'second-factor:'),
      oidcProviders: new OpenIdClientProviders({ allowHttpIssuer: config.sso.allowHttpIssuer, clock }),
      dnsTxtRecords: parts.dnsTxtRecords ?? new NodeDnsTxtRecords(),
    }, {
      inviteTtlSeconds: config.inviteTtlSeconds,
      inviteRequireEmailMatch: config.inviteRequireEmailMatch,
      passwordPolicy: config.passwordPolicy,
      serviceKeyTrustMs: parts.serviceKeyTrustMs,
      moduleAuditActions: modules.flatMap((module) => module.auditActions ?? []),
      mailTokens: config.mail,
      sessions: config.sessions,
      sso: { ...ssoAddressesOf(config), allowHttpIssuer: config.sso.allowHttpIssuer },
    });

    // Reset requests taken before the shutdown are handled before the database closes (none are taken without a mailer).
    if (mailer) closeables.add('password reset requests', () => useCases.forgotPassword.settled());
    const mailWorker = mailer === undefined ? undefined : new MailWorker(new MailDelivery({
      repos: storage.storage.repos,
      unitOfWork: storage.storage.unitOfWork,
      mailer,
      render: (mail) => renderStoredMail(mail.kind, mail.input, { publicUrl: config.publicUrl ?? DEFAULT_DEVELOPMENT_PUBLIC_URL }),
      limits: mailSendLimitsOf(config, redis, clock),
      clock,
      trail: new AuditTrail({ ids, clock }),
    }), failed('mail delivery'));
    if (mailWorker) closeables.add('mail delivery', () => mailWorker.stop());

    const composed = await composeModules(identityModule(useCases), modules, {
      store: storage.moduleStore, clock, ids, trail: new AuditTrail({ ids, clock }),
    });
    const metrics = parts.metrics ?? (config.metrics.enabled ? createMetrics(storage.poolStats) : undefined);
    const app = createApp(useCases, {
      corsOrigin: config.corsOrigin,
      rateLimits: config.rateLimits,
      trustProxy: config.trustProxy === false ? undefined : config.trustProxy,
      rateLimitStore: parts.rateLimitStore ?? (redis ? redisRateLimitStores(redis, config.redisKeyPrefix) : undefined),
    }, {
      logger,
      onError: parts.onError,
      metrics,
      serveMetrics: config.metrics.port === undefined,
      readiness: parts.readiness ?? readinessProbe({
        isShuttingDown: parts.isShuttingDown ?? (() => false),
        pendingMigrations: storage.pendingMigrations,
        pingRedis: redis ? () => redis.ping() : undefined,
        timeoutMs: READINESS_TIMEOUT_MS,
      }),
      modules: composed.http,
      apiReferenceJson: composed.apiReferenceJson,
      changeStreamLimits: config.changeStreams,
      changeHeartbeatMs: parts.changeHeartbeatMs,
      consoleFiles: parts.consoleFiles,
      // Only the development mailbox, never chosen in production, has its messages served.
      developmentRoutes: mailer instanceof DevelopmentMailbox ? developmentMailboxRoutes(() => mailer.messages()) : [],
    });
    return {
      listener: app.listener, routes: app.routes, useCases, storage, clock, ids, secrets, mailer, mailWorker, feed, keyUsage, sessionActivity, metrics, tokens, close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The configured secrets with their ids (config.ts has checked them together). Outside production
 * JWT_SECRET may be unset (config.ts refuses that in production): a random one, for this process only.
 */
function signingKeysOf(config: Config, logger: Logger | undefined): JwtKeySet {
  let secret = config.jwtSecret;
  if (!secret) {
    logger?.warn('JWT_SECRET is not set: using a random secret, so tokens will not survive a restart');
    secret = randomBytes(32).toString('hex');
  }
  return {
    signing: jwtKey(secret, config.jwtSecretKeyId),
    next: config.jwtSecretNext ? jwtKey(config.jwtSecretNext, config.jwtSecretNextKeyId) : undefined,
    previous: config.jwtSecretPrevious ? jwtKey(config.jwtSecretPrevious, config.jwtSecretPreviousKeyId) : undefined,
  };
}

function configuredTokens(signingKeys: JwtKeySet, memory: VerifiedTokenOptions, logger: Logger | undefined): TokenService {
  const tokens = new JwtTokenService(signingKeys, memory);
  logger?.info({ signingKeyId: tokens.keyIds.signing, verifyingKeyIds: tokens.keyIds.verifying }, 'token signing keys');
  return tokens;
}

/** Failed logins per account: in Redis when instances share one (REDIS_URL), else in this process. */
function loginThrottleOf(
  config: Config, redis: Redis | undefined, clock: Clock, policy: LoginFailurePolicy = config.loginFailures, prefix = '',
): LoginThrottle {
  return redis
    ? new RedisLoginThrottle(redis, { keyPrefix: `${config.redisKeyPrefix}${prefix}`, ...policy })
    : new MemoryLoginThrottle(policy, clock);
}

/**
 * Wrong second-factor proofs (a sign-in's second step, a reset's factor) per member: 5 per client
 * address and 10 over every address in 15 minutes, so 40 an hour per member wherever they come
 * from, and at most 50 in any one hour since the windows are fixed (test/unit/second-factor-guesses.test.ts,
 * docs/security.md, "Second factors").
 */
export const SECOND_FACTOR_FAILURES: LoginFailurePolicy = { limit: 5, accountLimit: 10, windowSeconds: 900 };

/** Refuses every seal and open: an instance with second factors off (production without MFA_ENCRYPTION_KEY). */
const NO_FACTOR_SECRETS: FactorSecrets = {
  seal: () => { throw new SecondFactorsNotConfigured(); },
  open: () => { throw new SecondFactorsNotConfigured(); },
};

/**
 * MFA_ENCRYPTION_KEY when set. Unset in production: while no authenticator app is stored, second
 * factors are off (none can be enrolled, and a code is answered 503); once one is, the service
 * refuses to start, since it could not check those members' codes. Unset elsewhere: a key derived
 * from JWT_SECRET, or a random one for this process when that is unset too (secrets sealed with it
 * do not survive a restart).
 */
async function factorSecretsOf(config: Config, apps: Pick<TotpFactorRepository, 'anyExist'>, logger: Logger | undefined): Promise<FactorSecrets> {
  if (config.mfaEncryptionKey) return new AesGcmFactorSecrets(config.mfaEncryptionKey);
  if (config.nodeEnv === 'production') {
    if (await apps.anyExist()) {
      throw new StartRefused('MFA_ENCRYPTION_KEY is not set, and members have authenticator apps whose secrets it sealed: set it to the key they were enrolled under (docs/operations.md)');
    }
    logger?.warn('MFA_ENCRYPTION_KEY is not set: second factors are off (enrolling and checking a code answer 503)');
    return NO_FACTOR_SECRETS;
  }
  logger?.warn('MFA_ENCRYPTION_KEY is not set: using a development key; set it before enrolling factors you mean to keep');
  const key = config.jwtSecret
    ? createHash('sha256').update(`portcullis development mfa key:${config.jwtSecret}`).digest()
    : randomBytes(32);
  return new AesGcmFactorSecrets(key);
}

/** The callback every tenant's provider is given, and the console's page the callback hands over to. */
export function ssoAddressesOf(config: Pick<Config, 'publicUrl'>): SsoAddresses {
  return {
    redirectUri: ssoRedirectUri(config),
    consoleCallbackUrl: new URL('/console/sso-callback', config.publicUrl ?? DEFAULT_DEVELOPMENT_PUBLIC_URL).toString(),
  };
}

/** The one callback of every tenant's provider: the state of a sign-in names its tenant. */
export function ssoRedirectUri(config: Pick<Config, 'publicUrl'>): string {
  return new URL(`${AUTH_BASE}/sso/callback`, config.publicUrl ?? DEFAULT_DEVELOPMENT_PUBLIC_URL).toString();
}
