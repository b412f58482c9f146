import type { Schemas } from '../../api/client';

type AuditEvent = Schemas['AuditEvent'];

const COLUMNS = ['occurred_at', 'action', 'actor_user_id', 'actor_email', 'actor_auth', 'target_id', 'client_ip', 'user_agent', 'request_id', 'details'] as const;

/**
 * What a spreadsheet may read as the start of a formula, or (the separators) of a new cell that
 * starts one: OWASP's list for CSV injection (=, +, -, @, tab, carriage return), a line feed, the
 * two separators spreadsheets use (comma, and semicolon where the comma is a decimal mark), and NUL.
 */
const FORMULA_START = /^[=+\-@\t\r\n;,\u0000]/;

/**
 * One CSV field, as OWASP advises for text a caller chose (user agents, request ids, key names): every
 * field is wrapped in double quotes with its own quotes doubled (RFC 4180), so nothing inside it can
 * end the cell, and a field starting with a formula character gets a leading apostrophe inside the
 * quotes, so a spreadsheet shows it as text instead of running it.
 */
export function csvField(value: string | null): string {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The events as shown, with a header row; actors named by e-mail where the member list knows them. */
export function auditCsv(events: readonly AuditEvent[], emails: ReadonlyMap<string, string>): string {
  const rows = events.map((event) => {
    const values: Record<(typeof COLUMNS)[number], string | null> = {
      occurred_at: event.occurred_at,
      action: event.action,
      actor_user_id: event.actor_user_id,
      actor_email: event.actor_user_id === null ? null : emails.get(event.actor_user_id) ?? null,
      actor_auth: event.actor_auth,
      target_id: event.target_id,
      client_ip: event.client_ip,
      user_agent: event.user_agent,
      request_id: event.request_id,
      details: JSON.stringify(event.details),
    };
    return COLUMNS.map((column) => csvField(values[column])).join(',');
  });
  return [COLUMNS.map(csvField).join(','), ...rows].join('\r\n') + '\r\n';
}
