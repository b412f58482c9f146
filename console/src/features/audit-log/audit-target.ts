import type { Schemas } from '../../api/client';

type AuditEvent = Schemas['AuditEvent'];

/** What the page knows that turns an id into words: members' e-mails, keys' prefixes and names. */
export interface TargetNames {
  readonly emails: ReadonlyMap<string, string>;
  readonly keys: ReadonlyMap<string, { readonly prefix: string; readonly name: string | null }>;
}

function text(details: Record<string, unknown>, name: string): string | null {
  const value = details[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function keyWords(prefix: string | null, name: string | null): string | null {
  if (prefix === null) return name === null ? null : `key "${name}"`;
  return name === null ? `key ${prefix}` : `key ${prefix} ("${name}")`;
}

/**
 * The event's target in words: a key by its prefix or name, a member by e-mail (with the old and new
 * role of a role change), an invitation by the address it was sent to, single sign-on's provider,
 * domain or refusal. Taken from the event's own
 * details where it recorded them, else from what the page has loaded (members, keys, and the
 * invitations created on the same page); the raw id when nothing names it.
 */
export function describeTarget(event: AuditEvent, names: TargetNames, page: readonly AuditEvent[] = []): string {
  const details = (event.details ?? {}) as Record<string, unknown>;
  const id = event.target_id;
  const member = (userId: string | null) => (userId === null ? null : names.emails.get(userId) ?? null);
  switch (event.action) {
    case 'api_key.created':
    case 'api_key.revoked': {
      const known = id === null ? undefined : names.keys.get(id);
      const createdHere = page.find((other) => other.action === 'api_key.created' && other.target_id === id);
      const recorded = createdHere ? (createdHere.details ?? {}) as Record<string, unknown> : {};
      const words = keyWords(text(details, 'prefix') ?? known?.prefix ?? text(recorded, 'prefix'),
        text(details, 'name') ?? known?.name ?? text(recorded, 'name'));
      return words ?? id ?? '';
    }
    case 'invite.created':
    case 'invite.revoked':
    case 'invite.accepted': {
      const createdHere = page.find((other) => other.action === 'invite.created' && other.target_id === id);
      const email = text(details, 'email') ?? (createdHere ? text((createdHere.details ?? {}) as Record<string, unknown>, 'email') : null);
      const role = text(details, 'role');
      if (email === null) return id === null ? '' : `invitation ${id}`;
      return `invitation for ${email}${role && event.action === 'invite.created' ? ` as ${role}` : ''}`;
    }
    case 'member.role_changed': {
      const who = member(id) ?? id ?? '';
      const from = text(details, 'from');
      const to = text(details, 'to');
      return from && to ? `${who}: ${from} → ${to}` : who;
    }
    case 'member.removed': {
      const who = text(details, 'email') ?? member(id) ?? id ?? '';
      const role = text(details, 'role');
      return role ? `${who} (was ${role})` : who;
    }
    case 'session.started': {
      const how = text(details, 'how');
      return how ? `session from ${how.replace(/_/g, ' ')}` : id ?? '';
    }
    case 'session.ended': {
      // One session (its id is the target) or all of a member's (the member is): the details name the member either way.
      const who = member(text(details, 'user_id')) ?? text(details, 'user_id') ?? id ?? '';
      const count = typeof details['count'] === 'number' ? details['count'] : 1;
      const reason = text(details, 'reason');
      return `${who}: ${count} ${count === 1 ? 'session' : 'sessions'}${reason ? ` (${reason.replace(/_/g, ' ')})` : ''}`;
    }
    case 'sso.connection_saved':
    case 'sso.connection_removed':
      return text(details, 'issuer') ? `provider ${text(details, 'issuer')}` : id ?? '';
    case 'sso.domain_added':
    case 'sso.domain_verified':
    case 'sso.domain_removed':
      return text(details, 'domain') ? `domain ${text(details, 'domain')}` : id ?? '';
    case 'sso.sign_in':
    case 'sso.member_created': {
      const who = member(id) ?? id ?? '';
      const role = event.action === 'sso.member_created' ? text(details, 'role') : null;
      const issuer = text(details, 'issuer');
      return `${who}${role ? ` as ${role}` : ''}${issuer ? ` through ${issuer}` : ''}`;
    }
    case 'sso.sign_in_refused': {
      const reason = text(details, 'reason');
      return reason ? `refused: ${reason.replace(/_/g, ' ')}` : '';
    }
    default:
      return id === null ? '' : member(id) ?? id;
  }
}
