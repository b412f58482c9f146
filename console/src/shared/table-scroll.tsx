import type { ReactNode } from 'react';

/**
 * A table's own scrolling box: on a narrow screen the table scrolls sideways inside it while the page
 * does not. It can take the focus (and is named), so a keyboard user can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
