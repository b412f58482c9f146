import type { AuditPosition } from '../ports/audit-events';
import { isUuid } from '../../domain/ids';

/**
 * The cursor a client passes back for the next page: opaque to it, the last event's position to us.
 * base64url of "<epoch ms>.<id>", short and URL-safe; anything that does not decode to exactly that
 * is refused rather than guessed at.
 */
export function encodeAuditCursor(position: AuditPosition): string {
  return Buffer.from(`${position.occurredAt.getTime()}.${position.id}`, 'utf8').toString('base64url');
}

/** Null when the text is not a cursor this service made. */
export function decodeAuditCursor(cursor: string): AuditPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(text);
  if (!match) return null;
  const occurredAt = new Date(Number(match[1]));
  const id = match[2]!;
  if (Number.isNaN(occurredAt.getTime()) || !isUuid(id)) return null;
  return { occurredAt, id };
}
