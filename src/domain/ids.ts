const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a record, so callers answer "not found" without a lookup. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
