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
    // `load` is rebuilt on every render; the screen asks for a new load through reload().
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}
