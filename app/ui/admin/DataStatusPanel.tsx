import type { ImportRun, MarketStatusResult } from '~/services/imports/data-status.server';
import { Timestamp } from '../Timestamp';
import { ScrollRegion } from '~/ui/tables/ScrollRegion';

// The market data section of /admin: what `npm run data -- status` prints, as a page.

const number = (n: number | string) => Number(n).toLocaleString('en-US');

function RunsTable({
  caption,
  runs,
  testId,
  detailHeading,
}: {
  caption: string;
  runs: ImportRun[];
  testId: string;
  detailHeading: string;
}) {
  return (
    <ScrollRegion label={caption}>
      <table className="data-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Started</th>
            <th scope="col">Finished</th>
            <th scope="col">Result</th>
            <th scope="col">{detailHeading}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={`${r.source}-${r.started_at}`}>
              <th scope="row">{r.source}</th>
              <td>
                <Timestamp iso={r.started_at} />
              </td>
              <td>
                <Timestamp iso={r.finished_at} />
              </td>
              <td>{r.status}</td>
              <td>{r.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export function DataStatusPanel({ data }: { data: MarketStatusResult }) {
  return (
    <section className="card" aria-labelledby="data-heading" id="data">
      <h2 id="data-heading">Market data</h2>
      {data.state === 'missing' ? (
        <div className="empty-state" data-testid="data-empty">
          <p>Market data unavailable: {data.reason}.</p>
          <p>
            Create the demo universe with <code>npm run data -- demo</code>, or load real data with{' '}
            <code>npm run data -- import sec|sharadar|prices …</code>.
          </p>
        </div>
      ) : (
        <DataStatusDetails status={data.status} />
      )}
    </section>
  );
}

function DataStatusDetails({ status: s }: { status: Extract<MarketStatusResult, { state: 'ok' }>['status'] }) {
  return (
    <>
      {s.snapshotFreshness.state === 'stale' ? (
        <p className="notice" data-testid="snapshots-stale">
          <strong>Rebuild snapshots:</strong> {s.snapshotFreshness.message}
        </p>
      ) : null}
      <dl className="key-values" data-testid="data-status">
        <dt>Snapshot id</dt>
        <dd>
          <code>{s.snapshotId ?? '(none)'}</code>
        </dd>
        <dt>Securities</dt>
        <dd>
          {number(s.securities)} ({number(s.listed)} listed, {number(s.delisted)} delisted
          {s.demo > 0 ? `; ${number(s.demo)} fictional demo companies` : ''})
        </dd>
        <dt>Price rows</dt>
        <dd>
          {number(s.priceRows)}
          {s.firstPriceDate ? `, ${s.firstPriceDate} to ${s.lastPriceDate}` : ''}
        </dd>
        <dt>Facts</dt>
        <dd>{number(s.facts)}</dd>
        <dt>Corporate actions</dt>
        <dd>{number(s.corporateActions)}</dd>
        <dt>Stored snapshot dates</dt>
        <dd>
          {number(s.snapshotDates)}
          {s.latestSnapshotDate ? `, latest ${s.latestSnapshotDate}` : ''}
        </dd>
        <dt>Store file</dt>
        <dd>
          <code>{s.file}</code>
        </dd>
      </dl>
      {s.lastImportPerSource.length === 0 ? (
        <p>No import has run on this store.</p>
      ) : (
        <RunsTable caption="Last import per source" runs={s.lastImportPerSource} testId="data-last-imports" detailHeading="Detail" />
      )}
      {s.latestErrors.length === 0 ? (
        <p>No import has failed.</p>
      ) : (
        <RunsTable caption="Latest import errors" runs={s.latestErrors} testId="data-import-errors" detailHeading="Error" />
      )}
    </>
  );
}
