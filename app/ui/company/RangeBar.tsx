import { money } from './format';

// The 52-week range as text and as a bar with the price's place on it (the text says it all;
// the bar is decoration for a quick look).
export function RangeBar({ low, high, price }: { low: number | null; high: number | null; price: number | null }) {
  const span = low !== null && high !== null && high > low ? high - low : null;
  const at = span !== null && price !== null ? Math.min(100, Math.max(0, ((price - (low as number)) / span) * 100)) : null;
  return (
    <div className="range-bar" data-testid="range-52w">
      <p className="range-bar__text">
        52-week range: {money(low)} – {money(high)}
      </p>
      {at !== null ? (
        <div className="range-bar__track" aria-hidden="true">
          <span className="range-bar__marker" style={{ left: `${at.toFixed(1)}%` }} />
        </div>
      ) : null}
    </div>
  );
}
