import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * What the API shows once (an invitation's token, a new API key): the panel takes the focus when it
 * appears, so keyboard and screen-reader users land on it, and stays until the person is done. The
 * focus moves in the same commit that shows the panel (a layout effect), so there is no moment when
 * the panel is on the page and the focus is still where it was.
 */
export function SecretPanel({ title, children, onDone }: { title: string; children: ReactNode; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <section className="secret" aria-label={title}>
      <h2 ref={heading} tabIndex={-1}>{title}</h2>
      {children}
      <button type="button" onClick={onDone}>Done</button>
    </section>
  );
}
