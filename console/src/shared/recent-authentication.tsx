import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { useSession } from '../app/session';
import { ErrorMessage, useAction } from './feedback';
import { Field, Form } from './field';

/** The API's refusal of an action that needs the password proved again shortly before (compared by its stable message). */
export function isRecentAuthenticationRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.message === 'Recent authentication required';
}

/**
 * Asks for the password again (POST /reauthenticate). A modal dialog: the rest of the page is inert
 * until the person confirms or cancels (Escape cancels too); a wrong password is shown in the dialog,
 * in the API's words, and the dialog stays open.
 */
export function ConfirmPasswordDialog({ purpose, onConfirmed, onCancel }: {
  purpose: string;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const { reauthenticate } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const [password, setPassword] = useState('');
  const confirm = useAction(async () => {
    await reauthenticate(password);
    onConfirmed();
  });
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby={headingId} className="confirm-password" onCancel={(event) => {
      event.preventDefault();
      onCancel();
    }}>
      <Form label="Confirm your password" onSubmit={() => void confirm.run()}>
        <h2 id={headingId}>Confirm your password</h2>
        <p>{purpose} needs your password again, as you last proved it a while ago.</p>
        <Field label="Password" type="password" autoComplete="current-password" autoFocus value={password}
          onChange={(event) => setPassword(event.target.value)} />
        <div className="row-actions">
          <button type="submit" disabled={confirm.pending}>Confirm</button>
          <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
        </div>
        <ErrorMessage error={confirm.error} />
      </Form>
    </dialog>
  );
}

/**
 * Runs an action that may need recent authentication: on the API's 403 "Recent authentication
 * required" it asks for the password (the dialog in `prompt`, to be rendered by the caller) and
 * retries once. Cancelling rejects with that refusal, so the screen shows it as it shows any other.
 */
export function useRecentAuthentication(purpose: string): {
  withRecentAuthentication: <T>(action: () => Promise<T>) => Promise<T>;
  prompt: ReactNode;
} {
  const [asking, setAsking] = useState<{ confirmed: () => void; cancelled: () => void } | null>(null);
  const withRecentAuthentication = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!isRecentAuthenticationRequired(error)) throw error;
      await new Promise<void>((resolve, reject) => setAsking({ confirmed: resolve, cancelled: () => reject(error) }));
      // Once: a second refusal is the API's answer, shown as it is.
      return action();
    }
  }, []);
  const prompt = asking && (
    <ConfirmPasswordDialog purpose={purpose}
      onConfirmed={() => {
        setAsking(null);
        asking.confirmed();
      }}
      onCancel={() => {
        setAsking(null);
        asking.cancelled();
      }} />
  );
  return { withRecentAuthentication, prompt };
}
