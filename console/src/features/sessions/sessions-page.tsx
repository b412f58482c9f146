import { useState } from 'react';
import type { Success } from '../../api/client';
import { useSession } from '../../app/session';
import { DateTime, formatDateTime } from '../../shared/date-time';
import { ErrorMessage, StatusMessage, useAction } from '../../shared/feedback';
import { Screen } from '../../shared/screen';
import { TableScroll } from '../../shared/table-scroll';
import { useResource } from '../../shared/use-resource';
import { deviceName } from './device-name';

type SignedInSession = Success<'/api/v1/auth/sessions', 'get'>['sessions'][number];

/** This device first, then the most recently seen. */
function byRelevance(a: SignedInSession, b: SignedInSession): number {
  if (a.current !== b.current) return a.current ? -1 : 1;
  return b.last_seen_at.localeCompare(a.last_seen_at);
}

function ended(count: number): string {
  if (count === 0) return 'No other session was open.';
  return `Signed out ${count} other ${count === 1 ? 'session' : 'sessions'}.`;
}

/** Where the user agent was recognised, its name; the string as sent stays one click away. */
function Device({ userAgent }: { userAgent: string | null }) {
  const name = deviceName(userAgent);
  if (userAgent === null || userAgent.trim() === name) return <>{name}</>;
  return (
    <details className="device">
      <summary>{name}</summary>
      <code>{userAgent}</code>
    </details>
  );
}

function SessionRow({ session, onEnded }: { session: SignedInSession; onEnded: (message: string) => void }) {
  const { api } = useSession();
  const end = useAction(async () => {
    await api('delete', '/api/v1/auth/sessions/{id}', { params: { id: session.id } });
    onEnded(`Signed out the session on ${deviceName(session.user_agent)}.`);
  });
  const described = `${deviceName(session.user_agent)}, started ${formatDateTime(session.created_at)}`;
  return (
    <tr>
      <td>
        <Device userAgent={session.user_agent} />
        {session.current && <strong className="this-device">This device</strong>}
      </td>
      <td>{session.ip ?? 'Unknown'}</td>
      <td><DateTime iso={session.created_at} /></td>
      <td><DateTime iso={session.last_seen_at} /></td>
      <td>
        {session.current ? (
          <span>Sign out, at the top, ends this one.</span>
        ) : (
          <button type="button" onClick={() => void end.run()} disabled={end.pending} aria-label={`End session: ${described}`}>End</button>
        )}
        <ErrorMessage error={end.error} />
      </td>
    </tr>
  );
}

/**
 * The caller's own sessions: each signed-in browser or device, ended here one by one or all but this
 * one at once. An ended session's token is refused from its next request on.
 */
export function SessionsPage() {
  const { api } = useSession();
  const sessions = useResource(() => api('get', '/api/v1/auth/sessions'));
  const [status, setStatus] = useState<string | null>(null);
  const endOthers = useAction(async () => {
    setStatus(null);
    const result = await api('delete', '/api/v1/auth/sessions');
    setStatus(ended(result.ended));
    sessions.reload();
  });
  const listed = [...(sessions.data?.sessions ?? [])].sort(byRelevance);
  return (
    <Screen title="Sessions">
      <p>Everywhere you are signed in to this organisation. End a session you do not recognise, and change your password if you suspect someone else has it.</p>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage error={sessions.error ?? endOthers.error} />
      {sessions.data && (
        <>
          <TableScroll label="Sessions">
            <table>
              <caption>Where you are signed in ({listed.length})</caption>
              <thead>
                <tr>
                  <th scope="col">Device</th><th scope="col">IP address</th><th scope="col">Started</th>
                  <th scope="col">Last seen</th><th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {listed.map((session) => (
                  <SessionRow key={session.id} session={session} onEnded={(message) => {
                    setStatus(message);
                    sessions.reload();
                  }} />
                ))}
              </tbody>
            </table>
          </TableScroll>
          <p>
            <button type="button" onClick={() => void endOthers.run()} disabled={endOthers.pending || !listed.some((s) => !s.current)}>
              Sign out all other sessions
            </button>
          </p>
        </>
      )}
    </Screen>
  );
}
