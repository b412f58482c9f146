export const SLUG_BASE_MAX_LENGTH = 42;
export const SLUG_SUFFIX_HEX_LENGTH = 6;

/**
 * The slug rule of docs/contract.md, "Tenants, members and credentials": lowercase, every run of characters outside a-z and 0-9 becomes one hyphen, cut to 42,
 * then a hyphen and a random suffix. Leading or trailing hyphens are kept, as the rule says.
 */
export function slugBase(tenantName: string): string {
  return tenantName.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, SLUG_BASE_MAX_LENGTH);
}

export function makeSlug(tenantName: string, randomHexSuffix: string): string {
  return `${slugBase(tenantName)}-${randomHexSuffix}`;
}
