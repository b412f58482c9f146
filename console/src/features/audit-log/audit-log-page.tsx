import { useEffect, useState } from 'react';
import { call, type Schemas } from '../../api/client';
import { useSession } from '../../app/session';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage, useAction } from '../../shared/feedback';
import { Form, SelectField } from '../../shared/field';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { useResource } from '../../shared/use-resource';
import { auditCsv } from './audit-csv';
import { describeTarget } from './audit-target';

type AuditAction = Schemas['AuditAction'];
type AuditEvent = Schemas['AuditEvent'];

/** Identity's actions, as docs/openapi.yaml lists them; the type check fails here if the API gains one this list lacks. */
export const AUDIT_ACTIONS = [
  'signup.tenant_created', 'signup.invite_accepted', 'login.succeeded', 'login.failed', 'api_key.created', 'api_key.revoked',
  'invite.created', 'invite.revoked', 'invite.accepted', 'member.role_changed', 'member.removed', 'password.changed',
  'password.reset_requested', 'password.reset', 'email.verified', 'email.change_requested', 'email.changed', 'email.sent', 'email.failed', 'email.skipped', 'invite.resent',
  'access.denied', 'session.started', 'session.ended',
  'mfa.enrolled', 'mfa.removed', 'mfa.recovery_codes_regenerated', 'mfa.recovery_code_used', 'mfa.failed',
  'tenant.security_changed',
  'sso.connection_saved', 'sso.connection_removed', 'sso.domain_added', 'sso.domain_verified', 'sso.domain_removed',
  'sso.sign_in', 'sso.sign_in_refused', 'sso.member_created',
] as const satisfies readonly AuditAction[];
const everyActionListed: [Exclude<AuditAction, (typeof AUDIT_ACTIONS)[number]>] extends [never] ? true : false = true;
void everyActionListed;

const PAGE_SIZE = 25;

/**
 * Every action the service here records: the reference it serves lists the installed product
 * modules' actions in its AuditAction schema too (the API refuses a filter on any other action).
 * Identity's own list when the reference cannot be read.
 */
export async function installedAuditActions(): Promise<readonly string[]> {
  try {
    const document = await call('get', '/api/v1/openapi.json', null) as { components?: { schemas?: { AuditAction?: { enum?: unknown } } } };
    const served = document.components?.schemas?.AuditAction?.enum;
    if (Array.isArray(served) && served.every((action) => typeof action === 'string') && served.length > 0) return served as string[];
  } catch {
    // fall through: the filter still offers identity's actions
  }
  return AUDIT_ACTIONS;
}

interface Filters {
  readonly action: string;
  readonly actor: string;
}

interface Page {
  readonly events: AuditEvent[];
  readonly next: string | null;
  /** 1 for the newest events; the API's cursors only go forward, so "First page" starts again. */
  readonly number: number;
}

function download(csv: string, name: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function AuditLogPage() {
  const { api } = useSession();
  const members = useResource(() => api('get', '/api/v1/auth/members'));
  const emails = new Map((members.data?.members ?? []).map((m) => [m.user_id, m.email]));
  // Keys are named by prefix and name in the Target column; the trail records only their ids for older events.
  const keys = useResource(() => api('get', '/api/v1/auth/api-keys'));
  const keyNames = new Map((keys.data?.api_keys ?? []).map((k) => [k.id, { prefix: k.prefix, name: k.name }]));
  const actions = useResource(installedAuditActions);
  const [draft, setDraft] = useState<Filters>({ action: '', actor: '' });
  const [page, setPage] = useState<Page | null>(null);
  const load = useAction(async (filters: Filters, cursor: string | undefined, number: number) => {
    const result = await api('get', '/api/v1/auth/audit-events', {
      query: { limit: PAGE_SIZE, cursor, action: filters.action || undefined, actor: filters.actor || undefined },
    });
    setPage({ events: result.events, next: result.next_cursor, number });
  });
  const [applied, setApplied] = useState<Filters>(draft);
  useEffect(() => {
    void load.run({ action: '', actor: '' }, undefined, 1);
    // The first page once, on opening; afterwards the person asks for pages.
  }, []);
  const nameOf = (id: string | null) => (id === null ? 'nobody' : emails.get(id) ?? id);
  return (
    <Screen title="Audit log">
      <Form label="Filter events" className="wide" onSubmit={() => {
        setApplied(draft);
        void load.run(draft, undefined, 1);
      }}>
        <div className="filters">
          <SelectField label="Action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
            <option value="">Any action</option>
            {(actions.data ?? AUDIT_ACTIONS).map((action) => <option key={action} value={action}>{action}</option>)}
          </SelectField>
          <SelectField label="Actor" value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })}>
            <option value="">Anyone</option>
            {(members.data?.members ?? []).map((m) => <option key={m.user_id} value={m.user_id}>{m.email}</option>)}
          </SelectField>
          <button type="submit" disabled={load.pending}>Show events</button>
        </div>
      </Form>
      <ErrorMessage error={load.error ?? members.error} />
      {page && (
        <>
          <div className="pager">
            <span role="status">Page {page.number}: {page.events.length} {page.events.length === 1 ? 'event' : 'events'}, newest first</span>
            {page.number > 1 && <button type="button" onClick={() => void load.run(applied, undefined, 1)} disabled={load.pending}>First page</button>}
            {page.next && <button type="button" onClick={() => void load.run(applied, page.next ?? undefined, page.number + 1)} disabled={load.pending}>Next page</button>}
            <button type="button" disabled={page.events.length === 0}
              onClick={() => download(auditCsv(page.events, emails), `audit-log-page-${page.number}.csv`)}>Export CSV</button>
          </div>
          {page.events.length > 0 && (
            <TableScroll label="Audit events">
              <table>
                <caption>Audit events</caption>
                <thead>
                  <tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Via</th><th scope="col">Target</th><th scope="col">Address</th></tr>
                </thead>
                <tbody>
                  {page.events.map((event) => (
                    <tr key={event.id}>
                      <td><DateTime iso={event.occurred_at} /></td>
                      <td>{event.action}</td>
                      <td>{nameOf(event.actor_user_id)}</td>
                      <td>{event.actor_auth}</td>
                      <td>{describeTarget(event, { emails, keys: keyNames }, page.events)}</td>
                      <td>{event.client_ip ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
    </Screen>
  );
}
