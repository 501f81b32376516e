import { useEffect, useRef, useState } from 'react';

// "Responsive, aspect ratio not kept": the server draws at a fixed width (the figure
// scrolls sideways on a narrow screen); in the browser the chart is redrawn at its container's
// width with the same height.
export function useChartWidth(initial: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (w > 200) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
