import type { ReactNode } from 'react';

// A wide table scrolls inside its own box, never the page: the box is a named region that
// takes focus, so keyboard users can scroll it with the arrow keys (axe: scrollable-region-focusable).
export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className ? `table-scroll ${className}` : 'table-scroll'} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
