import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ChangeFeed, type CredentialChange } from './change-feed';
import { nodeTransport } from './http-transport';
import { type Introspection, IntrospectionClient, type IntrospectionRequest, PortcullisUnavailable } from './introspection-client';
import { type Principal, setPrincipal } from './principal';
import { type CredentialKind, VerdictCache, type Verdict } from './verdict-cache';

export interface PortcullisOptions {
  /** Where Portcullis is: `https://auth.internal` (its API is under /api/v1/auth). */
  readonly url: string;
  /** This service's key, from `npm run service-key -- create <name>` on Portcullis. */
  readonly serviceKey: string;
  /** Bearer tokens, and API keys, remembered at most (each); the least recently used go first. Default 10,000. */
  readonly cacheSize?: number;
  /** How long an introspection may take before the request is answered 503. Default 2,000 ms. */
  readonly timeoutMs?: number;
  /** Reconnection waits for the change feed: from `min`, doubled per failure, up to `max`. Default 250 ms to 5 s. */
  readonly reconnectMs?: { readonly min: number; readonly max: number };
  /**
   * The longest a remembered answer is used, whatever the feed says, in milliseconds: a bound on
   * any verdict's age should a change ever fail to arrive. Default 60,000 (one introspection per
   * credential in use a minute).
   */
  readonly maxAgeMs?: number;
  /** Epoch milliseconds now, for expiry and age of remembered credentials; Date.now by default (tests move it). */
  readonly now?: () => number;
  /** Told of every failure to reach Portcullis and of the feed going down (not of `close()`); console.warn by default. */
  readonly onError?: (error: Error) => void;
  /** Told when the change feed opens (true) or drops (false), after the cache has acted on it. */
  readonly onFeed?: (connected: boolean) => void;
  /** Told of every change on the feed, after the cache has forgotten what it names. */
  readonly onChange?: (change: CredentialChange) => void;
}

export interface PortcullisMiddleware extends RequestHandler {
  /** Whether the change feed is open, so that answers are remembered. */
  readonly feedConnected: boolean;
  /** Resolves once the change feed is open (or at once if it is). */
  feedReady(): Promise<void>;
  /** Stops the change feed and closes idle connections to Portcullis; the middleware then asks Portcullis on every request. */
  close(): void;
}

// The rules a credential meets before anything is asked, as Portcullis applies them
// (Portcullis's docs/contract.md, "Authentication of protected routes").
const API_KEY_PREFIX = 'pcls_';
const API_KEY_LENGTH = 37;
const BEARER = 'Bearer ';
/** Seconds a client is asked to wait when Portcullis cannot vouch for its credential. */
const RETRY_AFTER_SECONDS = '5';

function refuse(res: Response, status: number, error: string): void {
  if (status === 503) res.set('Retry-After', RETRY_AFTER_SECONDS);
  res.status(status).json({ error });
}

interface Asked {
  readonly kind: CredentialKind;
  /** The credential itself: the token or the raw key. */
  readonly credential: string;
  /** What a refusal of this credential is called. */
  readonly refusal: string;
}

/**
 * Which credential the request carries, in the order of Portcullis's docs/contract.md,
 * "Authentication of protected routes"; a string is a refusal decided without asking.
 */
function credentialOf(req: Request): Asked | string {
  const header = req.headers['x-api-key'];
  if (header !== undefined) {
    const apiKey = Array.isArray(header) ? header.join(', ') : header;
    if (apiKey.length !== API_KEY_LENGTH || !apiKey.startsWith(API_KEY_PREFIX)) return 'Invalid API key format';
    return { kind: 'api_key', credential: apiKey, refusal: 'Invalid API key' };
  }
  const authorization = req.headers.authorization;
  if (authorization?.startsWith(BEARER)) {
    const token = authorization.slice(BEARER.length);
    return { kind: 'token', credential: token, refusal: 'Invalid or expired token' };
  }
  return 'Missing authentication';
}

type Active = Extract<Introspection, { active: true }>;

/**
 * How the caller authenticated. A Portcullis from before second factors sends no `amr`: an API key
 * is then `["api_key"]` and a token `["pwd"]`, what that Portcullis could issue.
 */
function amrOf(answer: Active): readonly string[] {
  if (answer.amr !== undefined) return Object.freeze([...answer.amr]);
  return answer.method === 'api_key' ? API_KEY_AMR : PASSWORD_AMR;
}

const API_KEY_AMR: readonly string[] = Object.freeze(['api_key']);
const PASSWORD_AMR: readonly string[] = Object.freeze(['pwd']);

function principalOfAnswer(answer: Active): Principal {
  const { tenant_id: tenantId, user_id: userId, role, method, session_id: sessionId } = answer;
  const amr = amrOf(answer);
  return Object.freeze(sessionId === undefined ? { tenantId, userId, role, method, amr } : { tenantId, userId, role, method, sessionId, amr });
}

function verdictOf(answer: Active, nowMs: number, maxAgeMs: number): Verdict {
  const expiresAtMs = answer.exp === undefined ? Number.POSITIVE_INFINITY : answer.exp * 1000;
  return {
    principal: principalOfAnswer(answer), staleAtMs: Math.min(expiresAtMs, nowMs + maxAgeMs), keyId: answer.key_id, sessionId: answer.session_id,
  };
}

/** One introspection under way, and the change position it asked Portcullis to reach first. */
interface Pending {
  readonly minPosition: number;
  readonly answer: Promise<Introspection>;
}

/**
 * Express middleware that admits a request only when Portcullis vouches for its credential, and
 * answers refusals exactly as Portcullis itself does (401 with the same messages). Answers are
 * remembered while the change feed is open, and forgotten the moment a change names them, or
 * everything is forgotten when the feed drops, and in any case after `maxAgeMs`. Every
 * introspection asks Portcullis to first reach the latest change position heard on the feed, and
 * an answer from an earlier position is neither remembered nor, if it admits, trusted: whichever
 * instance answers, it never answers from before a change this service has already acted on. When
 * Portcullis cannot be asked, the request is refused with 503: never let through on a guess.
 */
export function portcullis(options: PortcullisOptions): PortcullisMiddleware {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const onError = options.onError ?? ((error: Error) => console.warn(`portcullis: ${error.message}`));
  const transport = nodeTransport();
  const client = new IntrospectionClient(options.url, options.serviceKey, options.timeoutMs ?? 2_000, transport);
  const cache = new VerdictCache(options.cacheSize ?? 10_000);
  // Several requests with one unknown credential at once share one introspection, unless a change
  // was heard after it was sent: a later request must not take an answer older than what it knows.
  const inFlight: Record<CredentialKind, Map<string, Pending>> = { token: new Map(), api_key: new Map() };
  let waiting: Array<() => void> = [];

  const feed = new ChangeFeed({
    url: options.url,
    serviceKey: options.serviceKey,
    minReconnectMs: options.reconnectMs?.min ?? 250,
    maxReconnectMs: options.reconnectMs?.max ?? 5_000,
  }, {
    up: (position) => {
      cache.trust(position);
      for (const resolve of waiting) resolve();
      waiting = [];
      options.onFeed?.(true);
    },
    change: (change) => {
      if (change.kind === 'user') cache.forgetUser(change.userId);
      else if (change.kind === 'api_key') cache.forgetKey(change.keyId);
      else cache.forgetSession(change.sessionId);
      cache.heard(change.position);
      options.onChange?.(change);
    },
    down: (reason) => {
      cache.distrust();
      onError(reason);
      options.onFeed?.(false);
    },
    // A deliberate close is not a failure: onError (a warning by default) is not told of it.
    closed: () => {
      cache.distrust();
      options.onFeed?.(false);
    },
  }, transport);
  feed.start();

  const ask = (asked: Asked): Promise<Introspection> => {
    const { kind, credential } = asked;
    const sharing = inFlight[kind];
    const seen = cache.seen;
    const shared = sharing.get(credential);
    if (shared && shared.minPosition >= seen) return shared.answer;
    const generation = cache.generation;
    const position = seen > 0 ? { min_position: seen } : {};
    const request: IntrospectionRequest = kind === 'token' ? { token: credential, ...position } : { api_key: credential, ...position };
    const pending: Pending = {
      minPosition: seen,
      answer: client.introspect(request).then((answer) => {
        if (answer.position < seen) {
          // Portcullis read its log and holds no change that late: the positions heard are of a
          // database since restored. Believe its positions from now on; this answer admits nobody.
          cache.unheard(seen, answer.position);
          if (answer.active) throw new PortcullisUnavailable(`Portcullis answered at change position ${answer.position}, before the ${seen} already heard`);
          return answer;
        }
        if (answer.active) cache.set(kind, credential, verdictOf(answer, now(), maxAgeMs), generation, answer.position);
        return answer;
      }).finally(() => {
        if (sharing.get(credential) === pending) sharing.delete(credential);
      }),
    };
    sharing.set(credential, pending);
    return pending.answer;
  };

  const admit = (req: Request, next: NextFunction, principal: Principal): void => {
    setPrincipal(req, principal);
    next();
  };

  const middleware = ((req: Request, res: Response, next: NextFunction): void => {
    const asked = credentialOf(req);
    if (typeof asked === 'string') {
      refuse(res, 401, asked);
      return;
    }
    const known = cache.get(asked.kind, asked.credential, now());
    if (known) {
      admit(req, next, known.principal);
      return;
    }
    ask(asked).then((answer) => {
      if (!answer.active) refuse(res, 401, asked.refusal);
      else if (answer.exp !== undefined && now() >= answer.exp * 1000) refuse(res, 401, asked.refusal);
      else admit(req, next, principalOfAnswer(answer));
    }, (error: unknown) => {
      onError(error instanceof Error ? error : new PortcullisUnavailable(String(error)));
      refuse(res, 503, 'Authentication unavailable');
    });
  }) as PortcullisMiddleware;

  Object.defineProperty(middleware, 'feedConnected', { get: () => feed.connected });
  middleware.feedReady = () => (feed.connected ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  middleware.close = () => {
    feed.close();
    transport.close();
  };
  return middleware;
}
