import { useEffect, useRef, type ReactNode } from 'react';

/**
 * What the API shows once (an invitation's token, a new API key): the panel takes the focus when it
 * appears, so keyboard and screen-reader users land on it, and stays until the person is done.
 */
export function SecretPanel({ title, children, onDone }: { title: string; children: ReactNode; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="secret" aria-label={title}>
      <h2 ref={heading} tabIndex={-1}>{title}</h2>
      {children}
      <button type="button" onClick={onDone}>Done</button>
    </section>
  );
}
