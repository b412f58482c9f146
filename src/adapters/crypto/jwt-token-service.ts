import { createSecretKey, hash, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { TokenClaims, TokenService } from '../../application/ports/token-service';
import type { JwtKeySet, JwtSigningKey } from './jwt-signing-keys';
import { type Amr, isAmrList } from '../../domain/second-factor';

const ALGORITHM = 'HS256';
const LIFETIME = '24h';
const LIFETIME_SECONDS = 24 * 60 * 60;
/**
 * How far another instance's clock may be ahead of ours: a token it issued a moment ago may carry
 * an iat up to this far in our future, or an exp this much further than our own would be.
 */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * What one remembered token is counted at, besides the characters of its claims' strings (counted
 * one byte each, as V8 holds ASCII): its digest, its entry and claims objects, the strings' headers
 * and the LRU's bookkeeping, with room for the table's growth. Measured on V8's heap by
 * `scripts/bench/cache-entry-size.ts` (docs/benchmarks.md); measure again after changing an entry.
 */
export const TOKEN_ENTRY_BYTES = 352;

export interface VerifiedTokenOptions {
  /** Memory for remembered tokens, counted as TOKEN_ENTRY_BYTES plus their claims' characters; past it the least recently used go first. */
  readonly memoryBytes: number;
}

export const DEFAULT_VERIFIED_TOKENS: VerifiedTokenOptions = { memoryBytes: 64 * 2 ** 20 };

interface VerifiedToken {
  readonly claims: TokenClaims;
  /** Seconds since the epoch, as in the token. */
  readonly exp: number;
}

function entryBytes(entry: VerifiedToken): number {
  let chars = 0;
  // Whatever claims verify returns, so a claim added later is counted without a change here.
  for (const value of Object.values(entry.claims)) if (typeof value === 'string') chars += value.length;
  return TOKEN_ENTRY_BYTES + chars;
}

/**
 * The key a verified token is remembered by: SHA-256 of the whole token (header, payload and
 * signature), as 32 one-byte characters instead of the token's few hundred. A hit proves that this
 * exact token was verified: another string with the same digest would be a SHA-256 collision, or,
 * for one that must match a token already signed here, a second preimage, neither within anyone's
 * reach. The digest covers the signature, so a token altered anywhere, or re-signed, misses and is
 * verified in full. Hashing a token costs a small fraction of verifying it (docs/benchmarks.md).
 * The one-shot `hash` makes no Hash object and no Buffer: a fifth of createHash's cost on a token
 * (`npx tsx scripts/bench/token-memory.ts 1000 5`, the default row, before and after).
 */
function memoryKey(token: string): string {
  return hash('sha256', token, 'binary'); // 'binary' is latin1: one character a byte
}

/**
 * Slots of the hot-token front (a power of two): the tokens in use right now, found by the token
 * itself with no digest to make. Each slot holds one token string (a few hundred bytes; an address
 * at the length limit makes a token under a kilobyte), so the front costs at most about a megabyte
 * beside the memory's budget.
 */
const HOT_SLOTS = 1024;

/**
 * A token's slot in the front, from three characters of its signature: an HMAC's output, so spread
 * evenly whatever the claims (the last character carries only four bits of it, so it is left out).
 * Anyone may aim tokens at one slot; that only costs their own requests a miss, since a slot answers
 * only the exact string that a key verified.
 */
function hotSlot(token: string): number {
  const end = token.length;
  return (token.charCodeAt(end - 2) * 4_096 + token.charCodeAt(end - 3) * 64 + token.charCodeAt(end - 4)) & (HOT_SLOTS - 1);
}

/**
 * A validly signed token that promises more than this service ever grants: a lifetime (exp - iat,
 * or exp - now without iat) longer than ours, or an iat in the future. Only a holder of the secret
 * could make one (a leaked secret, a tool of one's own); refusing it bounds what such a token buys.
 */
function outlivesOurLifetime(payload: { exp: number; iat?: unknown }, nowSeconds: number): boolean {
  if (payload.iat === undefined) return payload.exp - nowSeconds > LIFETIME_SECONDS + CLOCK_SKEW_SECONDS;
  if (typeof payload.iat !== 'number' || !Number.isFinite(payload.iat)) return true;
  return payload.iat > nowSeconds + CLOCK_SKEW_SECONDS || payload.exp - payload.iat > LIFETIME_SECONDS + CLOCK_SKEW_SECONDS;
}

function isClaims(payload: unknown): payload is TokenClaims & { exp: number; iat?: unknown; sid?: string; mfa_enroll?: true } {
  if (typeof payload !== 'object' || payload === null) return false;
  const p = payload as Record<string, unknown>;
  // Absent in tokens issued before the claim existed; present, it must be a version we could have issued.
  const version = p.authVersion === undefined || (Number.isSafeInteger(p.authVersion) && (p.authVersion as number) >= 0);
  const session = p.sid === undefined || typeof p.sid === 'string';
  const amr = p.amr === undefined || isAmrList(p.amr);
  const enroll = p.mfa_enroll === undefined || p.mfa_enroll === true;
  return typeof p.tenantId === 'string' && typeof p.userId === 'string' && typeof p.email === 'string'
    && typeof p.role === 'string' && typeof p.exp === 'number' && version && session && amr && enroll;
}

/**
 * A handful of amr lists cover every session (a password, a password and a code, a passkey...): the
 * remembered tokens share one frozen list of each instead of an array apiece, which would cost each
 * entry more than TOKEN_ENTRY_BYTES counts. Only signed tokens get here, so the lists are the ones
 * this service issues; past AMR_LISTS_MAX distinct lists a token gets its own copy.
 */
const AMR_LISTS_MAX = 64;
const amrLists = new Map<string, readonly Amr[]>();

function sharedAmr(amr: readonly Amr[]): readonly Amr[] {
  const key = amr.join(' ');
  const known = amrLists.get(key);
  if (known) return known;
  const list = Object.freeze([...amr]);
  if (amrLists.size < AMR_LISTS_MAX) amrLists.set(key, list);
  return list;
}

interface HeldKey {
  readonly id: string;
  readonly key: KeyObject;
}

function held(key: JwtSigningKey): HeldKey {
  return { id: key.id, key: createSecretKey(Buffer.from(key.secret, 'utf8')) };
}

/**
 * The `kid` of a token's JOSE header: undefined when it names none (tokens of the contract, and
 * every token issued before tokens carried one); null when the header is unreadable or the kid is
 * not a string, a token no key can verify.
 */
function headerKeyId(token: string): string | undefined | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const kid = (header as Record<string, unknown>).kid;
  if (kid === undefined) return undefined;
  return typeof kid === 'string' ? kid : null;
}

/**
 * HS256 bearer tokens. Secrets are held as KeyObjects: given a plain string, jsonwebtoken first
 * tries to parse it as a PEM public key on every call, which costs far more than the HMAC itself
 * (docs/benchmarks.md, "Figures behind choices in the code").
 *
 * Keys rotate (jwt-signing-keys.ts): tokens are signed with the signing key and name it in their
 * header's `kid`; a token naming a kid is checked against that key alone, and one naming a kid this
 * instance does not hold is refused. A token naming none is checked against every key held, as
 * tokens were before they carried one. The next and previous keys verify but never sign.
 *
 * A client sends the same token on every request for a day, so each token's signature is checked
 * (HMAC, base64 and JSON decoding) once, and its claims are kept in an LRU bounded by memory, keyed
 * by the token's digest (memoryKey): only a token this service signed can get in, and a hit is refused once past its
 * expiry exactly as jsonwebtoken would refuse it. This caches the signature check only; whether the
 * token's user still stands (removed, role or password changed) is decided by Authenticate on every
 * request, after this. The keys are fixed for the life of the instance and the memory with it, so a
 * token is remembered only after a key this instance holds has verified it: an instance started
 * without a retired key remembers nothing that key signed.
 *
 * In front of that memory, a small table of the tokens in use right now (HOT_SLOTS, direct-mapped by
 * hotSlot) answers a token sent again by comparing the string itself: a client's next request
 * costs a string comparison instead of a SHA-256 and an LRU lookup (`npx tsx scripts/bench/token-memory.ts`,
 * the "hot" row). A slot is filled only from an entry the memory holds, that is after a key verified
 * the token, and a hit is held to the same expiry.
 */
export class JwtTokenService implements TokenService {
  readonly expiresIn = LIFETIME;
  /** The ids this instance signs with and verifies with (for the log at start; ids are not secret). */
  readonly keyIds: { readonly signing: string; readonly verifying: readonly string[] };
  private readonly signing: HeldKey;
  /** Signing first: most tokens without a kid were signed with it. */
  private readonly verificationKeys: readonly HeldKey[];
  private readonly byId: ReadonlyMap<string, HeldKey>;
  private readonly verified: LRUCache<string, VerifiedToken>;
  /** The front: a slot's token and its entry, side by side (no object made per fill). */
  private readonly hotTokens: (string | undefined)[] = new Array<string | undefined>(HOT_SLOTS).fill(undefined);
  private readonly hotEntries: (VerifiedToken | undefined)[] = new Array<VerifiedToken | undefined>(HOT_SLOTS).fill(undefined);

  constructor(keys: JwtKeySet, options: VerifiedTokenOptions = DEFAULT_VERIFIED_TOKENS) {
    this.verified = new LRUCache<string, VerifiedToken>({ maxSize: options.memoryBytes, sizeCalculation: entryBytes });
    const all = [keys.signing, keys.next, keys.previous].filter((key): key is JwtSigningKey => key !== undefined);
    // The configuration refuses these; a second guard, since either would make a kid ambiguous.
    if (new Set(all.map((key) => key.id)).size !== all.length) throw new Error('JWT signing keys must have distinct ids');
    if (new Set(all.map((key) => key.secret)).size !== all.length) throw new Error('JWT signing keys must have distinct secrets');
    this.verificationKeys = all.map(held);
    this.signing = this.verificationKeys[0]!;
    this.byId = new Map(this.verificationKeys.map((key) => [key.id, key]));
    this.keyIds = { signing: this.signing.id, verifying: all.map((key) => key.id) };
  }

  issue(claims: TokenClaims): string {
    const { tenantId, userId, email, role, authVersion, sessionId, amr, enrollmentOnly } = claims;
    const payload = {
      tenantId, userId, email, role, ...(authVersion === undefined ? {} : { authVersion }), ...(sessionId === undefined ? {} : { sid: sessionId }),
      ...(amr === undefined ? {} : { amr: [...amr] }), ...(enrollmentOnly ? { mfa_enroll: true } : {}),
    };
    return jwt.sign(payload, this.signing.key, { algorithm: ALGORITHM, expiresIn: LIFETIME, keyid: this.signing.id });
  }

  /** How many tokens are remembered, and the memory they are counted at. */
  get remembered(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.verified.size, bytes: this.verified.calculatedSize };
  }

  verify(token: string): TokenClaims | null {
    return this.check(token)?.claims ?? null;
  }

  /** Read from the verified tokens, so it costs nothing after `verify` (introspection asks right after). */
  expiresAt(token: string): Date | null {
    const known = this.check(token);
    return known ? new Date(known.exp * 1000) : null;
  }

  private check(token: string): VerifiedToken | null {
    const slot = hotSlot(token);
    if (this.hotTokens[slot] === token) {
      const entry = this.hotEntries[slot]!;
      if (unexpired(entry)) return entry;
    }
    const found = this.fromMemory(token);
    // Only a valid token takes the slot: a refused one never pushes out a token in use.
    if (found) {
      this.hotTokens[slot] = token;
      this.hotEntries[slot] = found;
    }
    return found;
  }

  /** From the memory, else verified and remembered; null when not valid. */
  private fromMemory(token: string): VerifiedToken | null {
    const digest = memoryKey(token);
    const known = this.verified.get(digest);
    if (known) {
      if (unexpired(known)) return known;
      this.verified.delete(digest);
      return null;
    }
    const kid = headerKeyId(token);
    if (kid === null) return null;
    let keys = this.verificationKeys;
    if (kid !== undefined) {
      const named = this.byId.get(kid);
      if (named === undefined) return null; // a key this instance does not hold: never, or no longer
      keys = [named];
    }
    for (const { key } of keys) {
      const payload = verifiedPayload(token, key);
      if (payload === undefined) continue; // bad signature for this key: try the next one
      if (!isClaims(payload)) return null; // a signed token without our claims, or without expiry
      // Checked once per token (a cached token is not checked again): never on the hot path.
      if (outlivesOurLifetime(payload, Math.floor(Date.now() / 1000))) return null;
      const { tenantId, userId, email, role, authVersion, sid, amr, mfa_enroll: enroll, exp } = payload;
      const claims: TokenClaims = Object.freeze({
        tenantId, userId, email, role, ...(authVersion === undefined ? {} : { authVersion }), ...(sid === undefined ? {} : { sessionId: sid }),
        ...(amr === undefined ? {} : { amr: sharedAmr(amr) }), ...(enroll === true ? { enrollmentOnly: true as const } : {}),
      });
      const entry: VerifiedToken = { claims, exp };
      this.verified.set(digest, entry);
      return entry;
    }
    return null;
  }
}

/** jsonwebtoken's own rule: expired once the current second reaches exp. */
function unexpired(entry: VerifiedToken): boolean {
  return Math.floor(Date.now() / 1000) < entry.exp;
}

/** The payload of a token valid under this key; null when it is signed right but unusable; undefined otherwise. */
function verifiedPayload(token: string, key: KeyObject): unknown {
  try {
    return jwt.verify(token, key, { algorithms: [ALGORITHM] });
  } catch (error) {
    // Only a signature mismatch is worth a second key; an expired or malformed token fails for both.
    return error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature' ? undefined : null;
  }
}
