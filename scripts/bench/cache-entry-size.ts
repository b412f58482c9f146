/**
 * What one remembered member, key and session cost the credential cache, in bytes of V8 heap:
 * the cache is filled with N members, then N keys of one owner, then N sessions of those members, from a source that makes fresh
 * strings per row as the database driver does (and fresh ids per request, as a token's claims
 * are), and the heap is measured after a full collection before and after each. The figures behind
 * MEMBER_ENTRY_BYTES, KEY_ENTRY_BYTES and SESSION_ENTRY_BYTES, which round them up for the tables' growth.
 *
 * Then N bearer tokens of N members of one tenant, signed as the service signs them, are verified
 * once each: what one remembered token costs the token service beyond its claims' characters, the
 * figure behind TOKEN_ENTRY_BYTES.
 *
 *   node --expose-gc --import tsx scripts/bench/cache-entry-size.ts [N, default 100000]
 */
import { createHash, randomUUID } from 'node:crypto';
import { CachedCredentialStates, KEY_ENTRY_BYTES, MEMBER_ENTRY_BYTES, SESSION_ENTRY_BYTES } from '../../src/adapters/cache/cached-credential-states';
import { jwtKey } from '../../src/adapters/crypto/jwt-signing-keys';
import { JwtTokenService, TOKEN_ENTRY_BYTES } from '../../src/adapters/crypto/jwt-token-service';
import type { ActiveApiKey, SessionState, UserAuthState } from '../../src/application/ports/repositories';

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number {
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A copy that shares no storage with its source, as a string parsed from a database row would. */
function fresh(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 100_000);
  // Flat copies: randomUUID's strings are built by concatenation, and flattening them later (as
  // fresh() does) would free memory in the middle of the measurement.
  const tenantId = fresh(randomUUID());
  const ownerId = fresh(randomUUID());
  const members = Array.from({ length: n }, () => fresh(randomUUID()));
  const keys = Array.from({ length: n }, (_, i) => ({ id: fresh(randomUUID()), hash: fresh(createHash('sha256').update(`k${i}`).digest('hex')) }));
  let current = 0; // the key being looked up: its lookup answers with that key's own id
  const cache = new CachedCredentialStates({
    // As the SQL repository does: the state names the member with the strings it was asked for.
    users: { findAuthState: async (tenant, user): Promise<UserAuthState> => ({ tenantId: tenant, userId: user, role: 'member', authVersion: 0 }) },
    apiKeys: {
      findActiveByHash: async (): Promise<ActiveApiKey> => ({
        keyId: fresh(keys[current]!.id), tenantId: fresh(tenantId), userId: fresh(ownerId), expiresAt: null,
        owner: { tenantId: fresh(tenantId), userId: fresh(ownerId), role: 'owner', authVersion: 0 },
      }),
    },
    // A session row names its member with strings of its own, as a database row does.
    sessions: {
      findLive: async (tenant, session): Promise<SessionState> => ({
        sessionId: session, tenantId: tenant, userId: fresh(members[current]!), lastSeenAt: new Date(), authenticatedAt: new Date(),
      }),
    },
  }, { memoryBytes: 2 ** 40, ttlMs: 600_000 });

  // Signed before measuring: the tokens are the requests' strings, not the memory's. As a sign-in
  // issues them: with a session and how it was authenticated.
  const tokens = new JwtTokenService({ signing: jwtKey('a-secret-for-measuring-the-token-memory') }, { memoryBytes: 2 ** 40 });
  const bearers = members.map((userId, i) => fresh(tokens.issue({
    tenantId, userId, email: `member-${i}-of-the-tenant@example.com`, role: 'member', authVersion: 0, sessionId: randomUUID(), amr: ['pwd', 'otp', 'mfa'],
  })));

  const empty = heapUsed();
  for (const userId of members) await cache.user(fresh(tenantId), fresh(userId));
  const withMembers = heapUsed();
  for (current = 0; current < n; current++) await cache.apiKey('pcls_0000000', fresh(keys[current]!.hash));
  const withKeys = heapUsed();
  const sessions = Array.from({ length: n }, () => fresh(randomUUID()));
  for (current = 0; current < n; current++) await cache.session(fresh(tenantId), fresh(sessions[current]!));
  const withSessions = heapUsed();
  let claimChars = 0;
  for (const bearer of bearers) {
    const claims = tokens.verify(bearer)!;
    claimChars += claims.tenantId.length + claims.userId.length + claims.email.length + claims.role.length;
  }
  const withTokens = heapUsed();

  const member = (withMembers - empty) / n;
  const key = (withKeys - withMembers) / n;
  console.log(`${n} members: ${member.toFixed(0)} bytes each (counted at ${MEMBER_ENTRY_BYTES})`);
  console.log(`${n} keys of one owner: ${key.toFixed(0)} bytes each (counted at ${KEY_ENTRY_BYTES})`);
  const session = (withSessions - withKeys) / n;
  console.log(`${n} sessions: ${session.toFixed(0)} bytes each (counted at ${SESSION_ENTRY_BYTES})`);
  const token = (withTokens - withSessions) / n;
  const chars = claimChars / n;
  console.log(`${n} tokens: ${token.toFixed(0)} bytes each, ${(token - chars).toFixed(0)} beyond their claims' ${chars.toFixed(0)} characters (counted at ${TOKEN_ENTRY_BYTES} + characters)`);
  // Read last, so that nothing measured was collected early (V8 frees what a function no longer reads).
  console.log(`held: ${cache.size.entries} entries, of ${members.length} members, ${keys.length} keys and ${sessions.length} sessions made; ${tokens.remembered.entries} tokens of ${bearers.length}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
