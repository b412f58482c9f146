import { useSyncExternalStore } from 'react';

/** The console's own addresses live under this path; the service answers each with the page. */
export const BASE = '/console';

const NAVIGATED = 'console:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

const snapshot = (): string => window.location.pathname + window.location.search;

/** The screen's path below BASE (`/members`; `/` for the console's root) and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  const below = url.pathname.slice(BASE.length).replace(/\/+$/, '');
  return { path: below === '' ? '/' : below.toLowerCase(), query: url.searchParams };
}

/** Moves to another screen without reloading the page: the session lives in this page's memory. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATED));
}
