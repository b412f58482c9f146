import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * One screen: its heading is the document's title, and it takes the focus when the screen opens,
 * so a screen reader announces where a link led (the page does not reload between screens). As in
 * SecretPanel, the focus moves in the commit that shows the screen.
 */
export function Screen({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
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
