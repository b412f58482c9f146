import type { MouseEvent } from 'react';
import { BASE, navigate } from './router';

/** A link to another screen, followed in the page (the session stays in memory). */
export function Link({ to, children, current }: { to: string; children: string; current?: boolean }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={follow} aria-current={current ? 'page' : undefined}>{children}</a>;
}
