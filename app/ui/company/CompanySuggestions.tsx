import { Link } from '@remix-run/react';
import { useEffect, useState } from 'react';
import type { CompanySearchHit as Hit } from '~/services/company/companies.server';
import { apiRequest } from '~/ui/api-client';

// Suggestions as you type (JavaScript only; without it the form's results list does the job).

export function useCompanySuggestions(query: string): Hit[] | null {
  const [hits, setHits] = useState<Hit[] | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (q.length === 0) {
      setHits(null);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      apiRequest<{ results: Hit[] }>(`/api/v1/companies?${new URLSearchParams({ query: q, limit: '8' })}`)
        .then((r) => {
          if (!cancelled) setHits(r.results);
        })
        .catch(() => {
          // The API client already shows the error dialog.
        });
    }, 150);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query]);
  return hits;
}

export function SuggestionList({ hits }: { hits: Hit[] | null }) {
  return (
    <div aria-live="polite" className="suggestions">
      {hits === null ? null : hits.length === 0 ? (
        <p className="muted">No suggestions.</p>
      ) : (
        <>
          <h2 className="suggestions__title">Suggestions</h2>
          <ul>
            {hits.map((h) => (
              <li key={h.permaticker}>
                <Link to={`/company/${h.permaticker}/overview`}>
                  <strong>{h.ticker}</strong> {h.name}
                </Link>
                {h.is_demo ? <span className="badge badge--demo">demo</span> : null}
                {h.is_delisted ? <span className="badge">delisted</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
