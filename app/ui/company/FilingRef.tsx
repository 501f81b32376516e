import { DEMO_FILING_NOTE } from '~/services/market/sec-links';

// Where a number comes from: a link to the SEC archive folder of its filing, or for demo data
// (fictional accessions) the accession with a note instead of a link.
export function FilingRef({
  url,
  accession,
  filed,
  form,
  compact = false,
}: {
  url: string | null;
  accession: string | null;
  filed: string;
  form?: string | null;
  compact?: boolean;
}) {
  const text = compact ? `filed ${filed}` : `${form ? `${form} ` : ''}filed ${filed}${accession ? ` (${accession})` : ''}`;
  if (url) {
    return (
      <a
        href={url}
        className="filing-link"
        rel="noopener noreferrer"
        target="_blank"
        title={accession ? `SEC filing ${accession}` : undefined}
      >
        {text}
        <span className="visually-hidden"> (SEC archive, opens in a new tab)</span>
      </a>
    );
  }
  return (
    <span className="filing-ref" title={accession ? `${DEMO_FILING_NOTE} Accession ${accession}.` : 'No accession number stored.'}>
      {text}
      {accession ? <span className="visually-hidden"> — demo filing, fictional accession, not on the SEC site</span> : null}
    </span>
  );
}
