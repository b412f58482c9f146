import { useCallback, useState } from 'react';
import { ApiError } from '../api/client';

/** A refusal by the browser rather than the API (a passkey ceremony cancelled or not possible), in the page's words. */
export class BrowserRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserRefusal';
  }
}

/** What went wrong, in the API's own words; a 429 or 503 also says when to try again. */
export function describeError(error: unknown, now: Date = new Date()): string {
  if (error instanceof BrowserRefusal) return error.message;
  if (!(error instanceof ApiError)) return 'Something went wrong in the page. Reload it and try again.';
  if (error.retryAfterSeconds === null) return error.message;
  const at = new Date(now.getTime() + error.retryAfterSeconds * 1000);
  const seconds = error.retryAfterSeconds === 1 ? '1 second' : `${error.retryAfterSeconds} seconds`;
  // The 429's own words already name the wait ("..., retry after 58 seconds"): said once, with the clock time.
  const refusal = error.message.replace(/,?\s*retry after \d+ seconds?\.?$/i, '');
  return `${refusal}. Try again in ${seconds} (at ${at.toLocaleTimeString()}).`;
}

/** The API's per-field messages of a 400 (`details`), by field name; empty for any other error. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const found: Record<string, string> = {};
  for (const detail of error.details) {
    found[detail.field] ??= detail.message;
  }
  return found;
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return <p role="alert" className="error">{describeError(error)}</p>;
}

/** A polite announcement of what just succeeded. */
export function StatusMessage({ children }: { children: string | null }) {
  return <p role="status" className="status">{children}</p>;
}

/**
 * An action started by the person (a form's submit, a button): whether it is running, and the
 * error it ended with, cleared when it runs again.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (...args: A) => {
    setPending(true);
    setError(null);
    try {
      await action(...args);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  }, [action]);
  return { run, pending, error, setError };
}
