import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ApiError, call, type CallOptions, type Schemas, type Success } from '../api/client';
import type { paths } from '../api/schema';
import { navigate } from './router';

export interface Session {
  readonly token: string;
  readonly me: Schemas['Me'];
  /** From the token's own claims: shown to the person, never trusted for anything. */
  readonly email: string | null;
  /** The person's account and organisation (GET /account); null when it could not be read. */
  readonly account: Schemas['Account'] | null;
}

export interface SignInOptions {
  /** Stay on the current screen rather than opening the person's first one (Join shows a welcome). */
  readonly stay?: boolean;
}

type Method = 'get' | 'post' | 'patch' | 'delete';
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
  signOut(note?: string): void;
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
      throw error;
    }
  }, [session, signOut]);

  const signIn = useCallback(async (token: string, options: SignInOptions = {}) => {
    const me = await call('get', '/api/v1/auth/me', token);
    // The organisation's name is for the header; a session without it still works.
    const account = await call('get', '/api/v1/auth/account', token).catch(() => null);
    const started: Session = { token, me, email: account?.email ?? emailClaim(token), account };
    setSession(started);
    setNote(null);
    if (!options.stay) navigate(me.role === 'owner' || me.role === 'admin' ? '/members' : '/account');
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
    () => ({ session, note, signIn, replaceToken, refreshAccount, signOut, api }),
    [session, note, signIn, replaceToken, refreshAccount, signOut, api],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useSession(): SessionContext {
  const context = useContext(Context);
  if (!context) throw new Error('useSession outside SessionProvider');
  return context;
}
