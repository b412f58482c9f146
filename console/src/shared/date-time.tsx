const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  return format.format(new Date(iso));
}

/** A timestamp in the reader's locale and zone, with the exact instant kept in datetime. */
export function DateTime({ iso, empty = 'Never' }: { iso: string | null; empty?: string }) {
  if (iso === null) return <>{empty}</>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}
