import type { Schemas } from '../../api/client';

type AuditEvent = Schemas['AuditEvent'];

const COLUMNS = ['occurred_at', 'action', 'actor_user_id', 'actor_email', 'actor_auth', 'target_id', 'client_ip', 'user_agent', 'request_id', 'details'] as const;

/**
 * One CSV field (RFC 4180 quoting). A value a spreadsheet would run as a formula (=, +, -, @, tab or
 * carriage return first) gets a leading apostrophe: the log holds what callers sent (user agents).
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
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
  return [COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
