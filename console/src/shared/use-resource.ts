import { useCallback, useEffect, useState } from 'react';

/** Data a screen loads on opening, and loads again on `reload()` (after a change the person made). */
export function useResource<T>(load: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => {
        if (current) {
          setData(value);
          setError(null);
        }
      },
      (caught: unknown) => {
        if (current) setError(caught);
      },
    );
    return () => {
      current = false;
    };
    // Only `version` starts a load: `load` is a new function on every render, and the screen asks
    // for a fresh load through reload().
  }, [version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}
