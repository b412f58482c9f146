import { useEffect, useRef, type ReactNode } from 'react';

/**
 * One screen: its heading is the document's title, and it takes the focus when the screen opens,
 * so a screen reader announces where a link led (the page does not reload between screens).
 */
export function Screen({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Portcullis console`;
    heading.current?.focus();
  }, [title]);
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>{title}</h1>
      {children}
    </>
  );
}
