import { Form, Link } from '@remix-run/react';
import { Timestamp } from '~/ui/Timestamp';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The saved screeners of /screener/manage: rules, when each last ran and how many matched, the
// share link, and the actions (run, backtest, rename, duplicate, delete). Plain links and forms.

export type SavedScreenerRow = {
  id: string;
  name: string;
  rules: string[];
  query: string;
  shareToken: string | null;
  lastRunAt: string | null;
  lastMatchCount: number | null;
};

function PostButton({ intent, id, children }: { intent: string; id: string; children: React.ReactNode }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="button button--link">
        {children}
      </button>
    </Form>
  );
}

export function SavedScreenersTable({ screeners, origin }: { screeners: SavedScreenerRow[]; origin: string }) {
  return (
    <ScrollRegion label="Saved screeners table">
      <table className="data-table" data-testid="saved-screeners">
        <caption className="visually-hidden">Your saved screeners</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Rules</th>
            <th scope="col">Last run</th>
            <th scope="col" className="num">
              Matches
            </th>
            <th scope="col">Share link</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {screeners.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <Link to={`/screener?${s.query}&saved=${s.id}`}>{s.name}</Link>
              </th>
              <td>
                {s.rules.length === 0 ? (
                  'none'
                ) : (
                  <ul className="plain-list">
                    {s.rules.map((r, i) => (
                      <li key={i}>
                        <code>{r}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                <Timestamp iso={s.lastRunAt} empty="never" />
              </td>
              <td className="num">{s.lastMatchCount ?? 'n/a'}</td>
              <td>
                {s.shareToken ? (
                  <>
                    <a href={`/screener/shared/${s.shareToken}`}>{`${origin}/screener/shared/${s.shareToken}`}</a>
                    <PostButton intent="unshare" id={s.id}>
                      Stop sharing<span className="visually-hidden"> {s.name}</span>
                    </PostButton>
                  </>
                ) : (
                  <PostButton intent="share" id={s.id}>
                    Create share link<span className="visually-hidden"> for {s.name}</span>
                  </PostButton>
                )}
              </td>
              <td className="screener-row-actions">
                <PostButton intent="run" id={s.id}>
                  Run<span className="visually-hidden"> {s.name}</span>
                </PostButton>
                <Link to={`/backtest?screener_id=${s.id}`}>
                  Backtest<span className="visually-hidden"> {s.name}</span>
                </Link>
                <Link to={`?modal=rename&id=${s.id}`}>
                  Rename<span className="visually-hidden"> {s.name}</span>
                </Link>
                <PostButton intent="duplicate" id={s.id}>
                  Duplicate<span className="visually-hidden"> {s.name}</span>
                </PostButton>
                <Link to={`?modal=delete&id=${s.id}`} className="danger-link">
                  Delete<span className="visually-hidden"> {s.name}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
