import { apiKeyLookupPrefix, isWellFormedApiKey } from '../../src/domain/api-key';
import { InsufficientRole } from '../../src/domain/errors';
import { normalizeEmail } from '../../src/domain/email';
import { isUuid } from '../../src/domain/ids';
import { inviteState } from '../../src/domain/invite';
import { assertRoleAtLeast, roleLevel } from '../../src/domain/role';
import { makeSlug, slugBase } from '../../src/domain/slug';

describe('slug', () => {
  it('lowercases and turns each run of other characters into one hyphen', () => {
    expect(slugBase('Acme  Corp!!! & Sons')).toBe('acme-corp-sons');
    expect(slugBase('Été à Paris')).toBe('-t-paris');
  });

  it('cuts the base to 42 characters before the suffix', () => {
    const slug = makeSlug('a'.repeat(100), 'abc123');
    expect(slug).toBe(`${'a'.repeat(42)}-abc123`);
  });
});

describe('roles', () => {
  it('orders owner > admin > member > viewer and gives unknown roles level 0', () => {
    expect([roleLevel('owner'), roleLevel('admin'), roleLevel('member'), roleLevel('viewer')]).toEqual([4, 3, 2, 1]);
    expect(roleLevel('superuser')).toBe(0);
  });

  it('refuses a lower role with the contract message', () => {
    expect(() => assertRoleAtLeast('member', 'admin')).toThrow(new InsufficientRole('admin'));
    expect(() => assertRoleAtLeast('member', 'admin')).toThrow('Requires admin role or higher');
    expect(() => assertRoleAtLeast('owner', 'admin')).not.toThrow();
    expect(() => assertRoleAtLeast('', 'viewer')).toThrow('Requires viewer role or higher');
  });
});

describe('API key format', () => {
  it('accepts only the prefix and 37 characters', () => {
    expect(isWellFormedApiKey(`pcls_${'a'.repeat(32)}`)).toBe(true);
    expect(isWellFormedApiKey(`pcls_${'a'.repeat(31)}`)).toBe(false);
    expect(isWellFormedApiKey(`xxxx_${'a'.repeat(32)}`)).toBe(false);
    expect(apiKeyLookupPrefix(`pcls_${'0123456789abcdef'.repeat(2)}`)).toBe('pcls_01234567');
  });
});

describe('invite states', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('is pending before expiry, expired at it, accepted once used', () => {
    expect(inviteState({ acceptedAt: null, expiresAt: new Date(now.getTime() + 1) }, now)).toBe('pending');
    expect(inviteState({ acceptedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(inviteState({ acceptedAt: now, expiresAt: new Date(0) }, now)).toBe('accepted');
  });
});

describe('e-mails and ids', () => {
  it('normalises addresses by trimming and lowercasing', () => {
    expect(normalizeEmail('  Alice@Example.COM ')).toBe('alice@example.com');
  });

  it('recognises UUIDs only', () => {
    expect(isUuid('9b2f8a5e-3c1d-4e6f-8a7b-1c2d3e4f5a6b')).toBe(true);
    expect(isUuid('1')).toBe(false);
    expect(isUuid("' OR 1=1 --")).toBe(false);
  });
});
