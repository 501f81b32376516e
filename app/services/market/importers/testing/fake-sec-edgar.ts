import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// A local stand-in for data.sec.gov, speaking its wire format: the submissions document at
// /submissions/CIK##########.json and the XBRL company facts at
// /api/xbrl/companyfacts/CIK##########.json, 403 for a request without a User-Agent (as the SEC
// answers undeclared clients) and 404 for an unknown CIK. Tests queue failures per path.

export type SecFailure = { status: 429; retryAfter: string } | { status: 500 | 503 } | { truncated: true };

export type FakeSecEdgar = {
  url: string;
  /** Response bodies by path, e.g. /submissions/CIK0000320193.json. */
  documents: Map<string, string>;
  /** Failures served, in order, before the path's real answer. */
  failures: Map<string, SecFailure[]>;
  /** Binary documents (the bulk archives) by path, served with HTTP Range support. */
  archives: Map<string, Buffer>;
  /** When set, the next archive answer stops after this many bytes (a dropped connection). */
  cutArchiveAfter: number | null;
  /** Every request's path, User-Agent and Range header. */
  requests: { path: string; userAgent: string | null; range?: string }[];
  close(): Promise<void>;
};

export const submissionsPath = (cik: string) => `/submissions/CIK${cik.padStart(10, '0')}.json`;
export const companyFactsPath = (cik: string) => `/api/xbrl/companyfacts/CIK${cik.padStart(10, '0')}.json`;

export async function startFakeSecEdgar(port = 0): Promise<FakeSecEdgar> {
  const fake: Omit<FakeSecEdgar, 'url' | 'close'> = {
    documents: new Map(),
    archives: new Map(),
    cutArchiveAfter: null,
    failures: new Map(),
    requests: [],
  };
  const server: Server = createServer((req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://localhost').pathname;
    const userAgent = req.headers['user-agent'] ?? null;
    const range = req.headers.range;
    fake.requests.push({ path: urlPath, userAgent, ...(range ? { range } : {}) });
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': status === 200 ? 'application/json' : 'text/html', ...headers });
      res.end(body);
    };
    if (!userAgent) return send(403, '<h1>Your Request Originates from an Undeclared Automated Tool</h1>');
    const archive = fake.archives.get(urlPath);
    if (archive) {
      const from = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
      const body = archive.subarray(from);
      res.writeHead(range ? 206 : 200, {
        'Content-Type': 'application/zip',
        'Content-Length': String(body.length),
        ...(range ? { 'Content-Range': `bytes ${from}-${archive.length - 1}/${archive.length}` } : {}),
      });
      const cut = fake.cutArchiveAfter;
      if (cut === null) return res.end(body);
      fake.cutArchiveAfter = null;
      res.write(body.subarray(0, cut), () => res.destroy());
      return;
    }
    const failure = fake.failures.get(urlPath)?.shift();
    if (failure && 'truncated' in failure) return send(200, '{"cik":1835632,"entityName":"MARVELL TECHNOLOGY, INC","facts":{"us-gaap":{');
    if (failure && failure.status === 429) return send(429, 'Too Many Requests', { 'Retry-After': failure.retryAfter });
    if (failure) return send(failure.status, 'Service Unavailable');
    const body = fake.documents.get(urlPath);
    if (body === undefined) return send(404, '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
    send(200, body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  // The same object the server reads, so a test's changes (cutArchiveAfter) reach it.
  return Object.assign(fake, {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  });
}

const samplePath = (kind: 'companyfacts' | 'submissions', cik: string) =>
  path.resolve('../shared/data/fundamentals/sec', kind, `CIK${cik.padStart(10, '0')}.json`);

/** One of the recorded SEC payloads of ../shared/data (described in its SOURCES.md). */
export function secSample(kind: 'companyfacts' | 'submissions', cik: string): string {
  return readFileSync(samplePath(kind, cik), 'utf8');
}

/** Whether ../shared/data holds both payloads of every company: tests on them skip (and say so) without. */
export function hasSecSamples(
  ciks: readonly string[],
  kinds: readonly ('companyfacts' | 'submissions')[] = ['companyfacts', 'submissions'],
): boolean {
  const has = ciks.every((cik) => kinds.every((kind) => existsSync(samplePath(kind, cik))));
  if (!has) console.warn('Skipping tests on the recorded SEC payloads: ../shared/data/fundamentals/sec is absent');
  return has;
}

/** The submissions document with one more filing on top of its recent filings, as EDGAR lists a new one. */
export function withNewFiling(
  submissions: string,
  filing: { accessionNumber: string; filingDate: string; reportDate: string; form: string },
): string {
  const doc = JSON.parse(submissions) as { filings: { recent: Record<string, unknown[]> } };
  for (const [key, values] of Object.entries(doc.filings.recent)) {
    const given = (filing as Record<string, string>)[key];
    values.unshift(given ?? (typeof values[0] === 'number' ? 0 : ''));
  }
  return JSON.stringify(doc);
}

/** The companyfacts document with one more fact of `tag` (us-gaap), as a new filing adds it. */
export function withNewFact(
  companyFacts: string,
  tag: string,
  fact: { start?: string; end: string; val: number; accn: string; fy: number; fp: string; form: string; filed: string; frame?: string },
): string {
  const doc = JSON.parse(companyFacts) as { facts: Record<string, Record<string, { units: Record<string, unknown[]> }>> };
  doc.facts['us-gaap'][tag].units.USD.push(fact);
  return JSON.stringify(doc);
}
