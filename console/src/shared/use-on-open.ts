import { useEffect, useRef, useState } from 'react';

export type Outcome<T> =
  | { readonly state: 'running' }
  | { readonly state: 'done'; readonly value: T }
  | { readonly state: 'failed'; readonly error: unknown };

/**
 * Runs `action` once when the screen opens, and tells how it ended. Once, even where React runs a
 * screen's effects twice (its development checks): a link's token can be spent only once, and a
 * second call would show its refusal over the first call's success.
 */
export function useOnOpen<T>(action: () => Promise<T>): Outcome<T> {
  const [outcome, setOutcome] = useState<Outcome<T>>({ state: 'running' });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    action().then(
      (value) => setOutcome({ state: 'done', value }),
      (error: unknown) => setOutcome({ state: 'failed', error }),
    );
    // `action` is read once, on opening: a new function on every render must not call it again.
  }, []);
  return outcome;
}
