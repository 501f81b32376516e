import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { strToU8, zipSync } from 'fflate';

// A local stand-in for Nasdaq Data Link's tables API, speaking its documented wire format:
// /api/v3/datatables/SHARADAR/<TABLE>.json with api_key, column filters (ticker=A,B), pages of
// `datatable.data` + `datatable.columns` with meta.next_cursor_id, qopts.export=true answering
// a datatable_bulk_download whose file is "creating" once and then "fresh" with a zip link, and
// errors as {quandl_error: {code, message}}, and row filters on a column's value list
// (ticker=A,B) or range (date.gte=…, lastupdated.gte=…; also .gt .lt .lte). The tables are
// served from Sharadar CSV files; `addRows` adds rows (a new day, a filing, an action).

const TEXT_COLUMNS = new Set(['ticker', 'cusips', 'siccode', 'contraticker', 'relatedtickers', 'name', 'contraname']);

/** A new SEP day for AAPL (2024-01-08), as the datatables API sends it, for refresh tests. */
export const AAPL_SEP_2024_01_08 = {
  ticker: 'AAPL',
  date: '2024-01-08',
  open: '182.09',
  high: '185.6',
  low: '181.5',
  close: '185.56',
  volume: '59144500',
  closeadj: '185.1',
  closeunadj: '185.56',
  lastupdated: '2024-01-08',
};

export type FakeNasdaq = {
  url: string;
  /** Rows per page (the real API's is up to 10,000). */
  pageSize: number;
  requests: { table: string; cursor: string | null; exporting: boolean; params: Record<string, string> }[];
  /** Adds rows to a table, given by column name (missing columns empty). */
  addRows(table: string, rows: Record<string, string>[]): void;
  /** Statuses to answer, in order, before the real answer, per table. */
  failures: Map<string, { status: number; retryAfter?: string }[]>;
  close(): Promise<void>;
};

export async function startFakeNasdaq(port: number, apiKey: string, fixtureDir: string): Promise<FakeNasdaq> {
  const tables = new Map<string, { csv: string; columns: string[]; rows: string[][] }>();
  for (const t of ['TICKERS', 'SEP', 'SF1', 'ACTIONS']) {
    const csv = readFileSync(path.join(fixtureDir, `SHARADAR_${t}.csv`), 'utf8');
    const [columns, ...rows] = parse(csv, { relax_column_count: false }) as string[][];
    tables.set(t, { csv, columns, rows });
  }
  const exportsAsked = new Set<string>();
  const fake = { pageSize: 2, requests: [] as FakeNasdaq['requests'], failures: new Map() as FakeNasdaq['failures'] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const file = /^\/exports\/(\w+)\.zip$/.exec(url.pathname);
    if (file) {
      const t = tables.get(file[1])!;
      res.writeHead(200, { 'Content-Type': 'application/zip' });
      res.end(Buffer.from(zipSync({ [`SHARADAR_${file[1]}_export.csv`]: strToU8(t.csv) })));
      return;
    }
    const match = /^\/api\/v3\/datatables\/SHARADAR\/(\w+)\.json$/.exec(url.pathname);
    const table = match ? tables.get(match[1]) : undefined;
    if (!match || !table) return json(404, { quandl_error: { code: 'QECx02', message: 'You have submitted an incorrect Quandl code.' } });
    const exporting = url.searchParams.get('qopts.export') === 'true';
    const cursor = url.searchParams.get('qopts.cursor_id');
    const params = Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'api_key'));
    fake.requests.push({ table: match[1], cursor, exporting, params });
    if (url.searchParams.get('api_key') !== apiKey)
      return json(400, { quandl_error: { code: 'QEAx01', message: 'We could not recognize your API key.' } });
    const failure = fake.failures.get(match[1])?.shift();
    if (failure)
      return json(
        failure.status,
        { quandl_error: { code: 'QELx05', message: 'limit' } },
        failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {},
      );
    if (exporting) {
      const fresh = exportsAsked.has(match[1]);
      exportsAsked.add(match[1]);
      return json(200, {
        datatable_bulk_download: {
          file: {
            link: fresh ? `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/${match[1]}.zip` : null,
            status: fresh ? 'fresh' : 'creating',
            data_snapshot_time: null,
          },
          datatable: { last_refreshed_time: '2024-01-05 00:00:00 UTC' },
        },
      });
    }
    let rows = table.rows;
    for (const [key, value] of url.searchParams) {
      const range = /^(\w+)\.(gt|gte|lt|lte)$/.exec(key);
      const column = table.columns.indexOf(range ? range[1] : key);
      if (column < 0) continue;
      if (range) {
        // Dates and numbers of one width compare as strings (the fixtures' are ISO dates).
        const test = {
          gt: (v: string) => v > value,
          gte: (v: string) => v >= value,
          lt: (v: string) => v < value,
          lte: (v: string) => v <= value,
        };
        rows = rows.filter((r) => r[column] !== '' && test[range[2] as keyof typeof test](r[column]));
        continue;
      }
      const wanted = new Set(value.split(','));
      rows = rows.filter((r) => wanted.has(r[column]));
    }
    const offset = cursor ? Number(Buffer.from(cursor, 'base64').toString()) : 0;
    const slice = rows.slice(offset, offset + fake.pageSize);
    const next = offset + fake.pageSize < rows.length ? Buffer.from(String(offset + fake.pageSize)).toString('base64') : null;
    json(200, {
      datatable: {
        data: slice.map((r) =>
          r.map((v, i) => (v === '' ? null : !TEXT_COLUMNS.has(table.columns[i]) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v)),
        ),
        columns: table.columns.map((name) => ({ name, type: 'String' })),
      },
      meta: { next_cursor_id: next },
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // Port 0 takes a free one: test files of several checkouts may run at once.
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    addRows(name: string, rows: Record<string, string>[]) {
      const t = tables.get(name)!;
      for (const r of rows) {
        const unknown = Object.keys(r).find((k) => !t.columns.includes(k));
        if (unknown) throw new Error(`${name} has no column ${unknown}`);
        t.rows.push(t.columns.map((c) => r[c] ?? ''));
      }
    },
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
