import type { ReactElement } from 'react';

// nivo's server rendering is most of a chart page's server time (its animation springs are set
// up even with animate={false}), and the same chart is drawn again for every request of a page.
// So on the server the static SVG of a chart (and its data table) is kept, keyed by everything
// that shapes it, and inserted as markup; in the browser the live nivo chart takes its place once
// React has hydrated.
// The server's renderer (renderToStaticMarkup behind a bounded cache) is registered by
// entry.server.tsx; without one (tests) the chart renders as usual.

/** Returns the static markup of `element`, computing it only when `key` is not kept. */
export type SvgRenderer = (key: string, element: () => ReactElement) => string;

let serverRenderer: SvgRenderer | null = null;

export function registerServerSvgRenderer(renderer: SvgRenderer | null): void {
  serverRenderer = renderer;
}

/**
 * A key naming a chart's drawing: its settings and data, and the format function's text for
 * every value it may print (the data and a spread of axis-like values), since two formats
 * with the same data draw different labels.
 */
export function chartKey(
  kind: string,
  settings: unknown,
  values: readonly (number | null)[],
  format: (v: number | null) => string,
): string {
  const probes = [0, 1, -1, 0.5, 0.05, 2.5, 10, 25, 100, 1_000, 12_345.678, 1e6, 1e9, -0.25, null];
  return JSON.stringify([kind, settings, probes.map(format), values.map(format)]);
}

/** `draw()` live in the browser after hydration; its cached static markup on the server. */
export function ServerSvg({ hydrated, memoKey, draw }: { hydrated: boolean; memoKey: () => string; draw: () => ReactElement }) {
  if (hydrated) return draw();
  return <KeptMarkup className="chart__svg" memoKey={memoKey} draw={draw} />;
}

/**
 * The same for a chart's data table, inside an element of its own in every case (so the live
 * table takes the place of the server's): a 25-year chart's table is over a thousand elements,
 * which React rendered again for every request of the page, most of a backtest result's time.
 */
export function ServerTable({
  hydrated,
  className,
  memoKey,
  draw,
}: {
  hydrated: boolean;
  className: string;
  memoKey: () => string;
  draw: () => ReactElement;
}) {
  if (hydrated) return <div className={className}>{draw()}</div>;
  return <KeptMarkup className={className} memoKey={memoKey} draw={draw} />;
}

/** On the server, `draw()`'s kept markup (or `draw()` itself without a renderer); while hydrating, the server's markup as it is. */
function KeptMarkup({ className, memoKey, draw }: { className: string; memoKey: () => string; draw: () => ReactElement }) {
  if (typeof document === 'undefined') {
    if (serverRenderer) return <div className={className} dangerouslySetInnerHTML={{ __html: serverRenderer(memoKey(), draw) }} />;
    return <div className={className}>{draw()}</div>;
  }
  // Hydrating: React keeps the server's markup of an element given as HTML; the live element
  // replaces it right after (hydrated turns true).
  return <div className={className} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: '' }} />;
}
