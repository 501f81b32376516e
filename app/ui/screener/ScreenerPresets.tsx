import { Link } from '@remix-run/react';
import { PRESETS } from '~/services/screener/presets';

// Ready-made screens to start from, and a way back to an empty screen.

export function ScreenerPresets() {
  return (
    <nav aria-label="Preset screens" className="screener-presets">
      <span>Start from a preset:</span>
      <ul>
        {PRESETS.map((p) => (
          <li key={p.id}>
            <Link to={`/screener?preset=${p.id}`} title={p.description}>
              {p.name}
            </Link>
          </li>
        ))}
        <li>
          <Link to="/screener">Clear</Link>
        </li>
      </ul>
    </nav>
  );
}

export function ScreenProblems({ errors }: { errors: { message: string }[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="form-errors" role="alert" id="screen-errors">
      <p>The screen has problems:</p>
      <ul>
        {errors.map((e, i) => (
          <li key={i}>{e.message}</li>
        ))}
      </ul>
    </div>
  );
}
