import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '../../src/adapters/persistence/storage';
import type { Repositories } from '../../src/application/ports/repositories';
import type { ApiKey } from '../../src/domain/api-key';
import type { Invite, InviteSummary } from '../../src/domain/invite';
import type { Passkey, PasskeyChallenge, PasskeySignInCeremony } from '../../src/domain/passkey';
import type { Role } from '../../src/domain/role';
import type { Tenant } from '../../src/domain/tenant';
import type { User } from '../../src/domain/user';

// Every record gets fresh ids, slugs, e-mails and tokens, so test files can share one database
// and run in parallel without truncating anything.

const MINUTE_MS = 60_000;

/** Hands each case the storage the suite opened once in beforeAll. */
export type StorageGetter = () => Storage;

export function minutesFrom(base: Date, minutes: number): Date {
  return new Date(base.getTime() + minutes * MINUTE_MS);
}

export function uniqueEmail(): string {
  return `user-${randomUUID()}@example.test`;
}

export function aTenant(overrides: Partial<Tenant> = {}): Tenant {
  const id = randomUUID();
  return { id, name: 'Acme Corp', slug: `acme-corp-${id}`, createdAt: new Date(), ...overrides };
}

export function aUser(tenantId: string, overrides: Partial<User> = {}): User {
  return {
    id: randomUUID(),
    tenantId,
    email: uniqueEmail(),
    passwordHash: `scrypt$${randomBytes(8).toString('hex')}`,
    role: 'member',
    createdAt: new Date(),
    authVersion: 0,
    ...overrides,
  };
}

export function anInvite(tenantId: string, invitedBy: string, overrides: Partial<Invite> = {}): Invite {
  const now = new Date();
  return {
    id: randomUUID(),
    tenantId,
    email: uniqueEmail(),
    role: 'member',
    token: randomBytes(32).toString('hex'),
    invitedBy,
    expiresAt: minutesFrom(now, 60),
    acceptedAt: null,
    createdAt: now,
    ...overrides,
  };
}

/** What listPending gives of an invite: these fields and no others (no token). */
export function summaryOf(invite: Invite): InviteSummary {
  return { id: invite.id, email: invite.email, role: invite.role, expiresAt: invite.expiresAt, createdAt: invite.createdAt };
}

export function anApiKey(tenantId: string, userId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  const raw = `pcls_${randomBytes(16).toString('hex')}`;
  return {
    id: randomUUID(),
    tenantId,
    userId,
    keyPrefix: raw.slice(0, 13),
    keyHash: randomBytes(32).toString('hex'),
    revoked: false,
    createdAt: new Date(),
    name: null,
    expiresAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

/** A stored tenant with one stored user of the given role: the parent rows most cases need. */
export async function seedTenant(repos: Repositories, role: Role = 'owner'): Promise<{ tenant: Tenant; user: User }> {
  const tenant = aTenant();
  const user = aUser(tenant.id, { role });
  await repos.tenants.create(tenant);
  await repos.users.create(user);
  return { tenant, user };
}

export async function addUser(repos: Repositories, tenantId: string, role: Role): Promise<User> {
  const user = aUser(tenantId, { role });
  await repos.users.create(user);
  return user;
}

export function aPasskey(tenantId: string, userId: string, overrides: Partial<Passkey> = {}): Passkey {
  return {
    id: randomUUID(),
    tenantId,
    userId,
    credentialId: randomBytes(16).toString('base64url'),
    publicKey: new Uint8Array(randomBytes(77)),
    signCount: 0,
    transports: ['internal', 'hybrid'],
    backedUp: false,
    userHandle: randomBytes(32).toString('base64url'),
    name: 'Work laptop',
    createdAt: new Date(),
    lastUsedAt: null,
    ...overrides,
  };
}

export function aPasskeyChallenge(tenantId: string, userId: string, overrides: Partial<PasskeyChallenge> = {}): PasskeyChallenge {
  const now = new Date();
  return {
    id: randomUUID(),
    tenantId,
    userId,
    purpose: 'registration',
    attemptKey: null,
    challenge: randomBytes(32).toString('base64url'),
    createdAt: now,
    expiresAt: minutesFrom(now, 5),
    ...overrides,
  };
}

export function aSignInCeremony(overrides: Partial<PasskeySignInCeremony> = {}): PasskeySignInCeremony {
  const now = new Date();
  return {
    handleHash: randomBytes(32).toString('hex'),
    challenge: randomBytes(32).toString('base64url'),
    createdAt: now,
    expiresAt: minutesFrom(now, 5),
    ...overrides,
  };
}
