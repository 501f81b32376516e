import type { ReactNode } from 'react';

// A wide table's own sideways scroll area, so the page itself never scrolls sideways: focusable
// (tabIndex 0) and named, so keyboard users can scroll it with the arrow keys and screen readers
// announce it as a region.

export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={`table-scroll scroll-region${className ? ` ${className}` : ''}`} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
