import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ApiError, call, type CallOptions, type Schemas, type Success } from '../api/client';
import type { paths } from '../api/schema';
import { describeError } from '../shared/feedback';
import { navigate } from './router';

export interface Session {
  readonly token: string;
  readonly me: Schemas['Me'];
  /** From the token's own claims: shown to the person, never trusted for anything. */
  readonly email: string | null;
  /** The person's account and organisation (GET /account); null when it could not be read. */
  readonly account: Schemas['Account'] | null;
  /**
   * The organisation requires a second factor and this person has none yet: the token opens only
   * their account and the enrolment routes (everything else is 403 "Second factor enrollment required").
   */
  readonly enrollmentOnly: boolean;
}

/** The API's refusal of a session that may only set up a second factor (compared by its stable message). */
export function isEnrollmentRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.message === 'Second factor enrollment required';
}

export interface SignInOptions {
  /** Stay on the current screen rather than opening the person's first one (Join shows a welcome). */
  readonly stay?: boolean;
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** A call made as the signed-in person: a 401 ends the session and returns to Log in with a note. */
export type AuthedCall = <P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options?: CallOptions<Operation<P, M>>,
) => Promise<Success<P, M>>;

interface SessionContext {
  readonly session: Session | null;
  /** A note for the Log in screen: why the person was sent there. */
  readonly note: string | null;
  /** Starts the session with a token; resolves to the session started. */
  signIn(token: string, options?: SignInOptions): Promise<Session>;
  /** Keeps the session but with a fresh token (after a password change). */
  replaceToken(token: string): void;
  /** Reads the account again (after the address was verified elsewhere in the page). */
  refreshAccount(): Promise<void>;
  /** Forgets the session in this page only (it has ended, or the person is leaving it anyway). */
  signOut(note?: string): void;
  /** Ends the session at the service (POST /logout), then signs out here, whatever the service answered. */
  endSession(): Promise<void>;
  /**
   * Proves the password again (POST /reauthenticate), for what needs recent authentication. A wrong
   * password is refused with 401 like a dead token, so a 401 ends the session only if the token is dead.
   */
  reauthenticate(password: string): Promise<void>;
  readonly api: AuthedCall;
}

const Context = createContext<SessionContext | null>(null);

function emailClaim(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { email?: unknown };
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

/**
 * The token lives here, in this page's memory only: not in localStorage, sessionStorage or a cookie.
 * Reloading the page or closing the tab ends the session (docs/console.md says why).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const signOut = useCallback((why?: string) => {
    setSession(null);
    setNote(why ?? null);
    navigate('/login');
  }, []);

  const api = useCallback<AuthedCall>(async (method, path, options) => {
    try {
      return await call(method, path, session?.token ?? null, options);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        signOut(`Your session has ended (${error.message}). Log in again.`);
      }
      if (isEnrollmentRequired(error)) {
        setSession((current) => (current ? { ...current, enrollmentOnly: true } : current));
        navigate('/security');
      }
      throw error;
    }
  }, [session, signOut]);

  const endSession = useCallback(async () => {
    if (!session) return;
    const refusal = await call('post', '/api/v1/auth/logout', session.token).then(() => null, (error: unknown) => error);
    // 400 (no session to end) and 401 (ended already): nothing is left to end at the service.
    const ended = refusal === null || (refusal instanceof ApiError && (refusal.status === 400 || refusal.status === 401));
    // Otherwise the page forgets the token all the same, and says the session may stay open until it expires.
    signOut(ended
      ? 'You have signed out.'
      : `You have signed out of this page, but the service did not end the session, which may stay open until it expires: end it from Sessions once you log in again. The service said: ${describeError(refusal)}`);
  }, [session, signOut]);

  const reauthenticate = useCallback(async (password: string) => {
    try {
      await call('post', '/api/v1/auth/reauthenticate', session?.token ?? null, { body: { password } });
    } catch (error) {
      // A dead token ends the session here (api's 401 rule); a wrong password stays the caller's to show.
      if (error instanceof ApiError && error.status === 401) await api('get', '/api/v1/auth/me');
      throw error;
    }
  }, [session, api]);

  const signIn = useCallback(async (token: string, options: SignInOptions = {}) => {
    const me = await call('get', '/api/v1/auth/me', token);
    // The organisation's name is for the header; a session without it still works.
    const account = await call('get', '/api/v1/auth/account', token).catch(() => null);
    // A route every full session may read and an enrolment-only one may not: whether the
    // organisation's policy holds this person to setting up a second factor first.
    const enrollmentOnly = await call('get', '/api/v1/auth/sessions', token).then(() => false, isEnrollmentRequired);
    const started: Session = { token, me, email: account?.email ?? emailClaim(token), account, enrollmentOnly };
    setSession(started);
    setNote(null);
    if (enrollmentOnly) navigate('/security');
    else if (!options.stay) navigate(me.role === 'owner' || me.role === 'admin' ? '/members' : '/account');
    return started;
  }, []);

  const replaceToken = useCallback((token: string) => {
    setSession((current) => (current ? { ...current, token } : current));
  }, []);

  const refreshAccount = useCallback(async () => {
    if (!session) return;
    const account = await call('get', '/api/v1/auth/account', session.token).catch(() => null);
    if (account) setSession((current) => (current?.token === session.token ? { ...current, account } : current));
  }, [session]);

  const value = useMemo(
    () => ({ session, note, signIn, replaceToken, refreshAccount, signOut, endSession, reauthenticate, api }),
    [session, note, signIn, replaceToken, refreshAccount, signOut, endSession, reauthenticate, api],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useSession(): SessionContext {
  const context = useContext(Context);
  if (!context) throw new Error('useSession outside SessionProvider');
  return context;
}
