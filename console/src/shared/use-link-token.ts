import { useLayoutEffect, useState } from 'react';
import { navigate, useLocation } from '../app/router';

/**
 * The token of an e-mailed link (`/console/reset-password?token=...`), or another one-time secret
 * a link carries (`name`: single sign-on's handoff `code`), kept in this screen's memory and taken
 * out of the address bar as the screen first appears, before anything else runs: from then on it is
 * in no history entry, bookmark or Referer, and a person who shares their screen shows none.
 * Null when the address has none.
 */
export function useLinkToken(name = 'token'): string | null {
  const { path, query } = useLocation();
  // Read once, while the address still holds it; the layout effect below removes it before paint.
  const [token] = useState(() => query.get(name));
  useLayoutEffect(() => {
    if (new URLSearchParams(window.location.search).has(name)) navigate(path, { replace: true });
  }, [path, name]);
  return token;
}
