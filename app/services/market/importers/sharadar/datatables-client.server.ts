import pThrottle from 'p-throttle';
import { z } from 'zod';

// Nasdaq Data Link's tables API (docs.data.nasdaq.com, "Tables"): GET
// /api/v3/datatables/SHARADAR/<TABLE>.json with the key as the api_key parameter. An answer
// holds at most qopts.per_page rows (10,000) and a meta.next_cursor_id for the next page; a whole
// table comes as one zipped CSV through qopts.export=true, whose link is ready once the file's
// status is "fresh". Subscribers may make 5,000 calls per 10 minutes and 720,000 a day, and
// qopts.export 60 times an hour; both are enforced here before asking.

const PageSchema = z.object({
  datatable: z.object({
    data: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
    columns: z.array(z.object({ name: z.string(), type: z.string().optional() })),
  }),
  meta: z.object({ next_cursor_id: z.string().nullable().optional() }).optional(),
});

export type DatatablePage = { columns: string[]; rows: (string | number | boolean | null)[][]; next: string | null };

const ExportSchema = z.object({
  datatable_bulk_download: z.object({
    file: z.object({ link: z.string().nullable(), status: z.string() }),
  }),
});

export class NasdaqDataLinkError extends Error {
  override name = 'NasdaqDataLinkError';
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export type DatatablesClientOptions = {
  apiKey: string;
  apiUrl: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  onWait?: (message: string) => void;
  /** Seconds between looks at a bulk export that is still being made. */
  exportPollMs?: number;
};

export type DatatablesClient = {
  page(table: string, filters: Record<string, string>, cursor: string | null): Promise<DatatablePage>;
  /** The whole table's zip file (one CSV inside). */
  exportTable(table: string): Promise<Uint8Array>;
};

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 5;
const PER_PAGE = '10000';

export function createDatatablesClient(options: DatatablesClientOptions): DatatablesClient {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const onWait = options.onWait ?? (() => {});
  const calls = pThrottle({
    limit: 5000,
    interval: 10 * 60_000,
    onDelay: () => onWait('Nasdaq Data Link: 5,000 calls in 10 minutes (the limit); waiting'),
  });
  const exports = pThrottle({
    limit: 60,
    interval: 60 * 60_000,
    onDelay: () => onWait('Nasdaq Data Link: 60 table exports this hour (the limit); waiting'),
  });
  const send = calls((url: string) => fetchImpl(url));
  const sendExport = exports((url: string) => send(url));
  const base = (table: string) => `${options.apiUrl}/api/v3/datatables/SHARADAR/${table}.json`;
  // The key goes in the URL: keep it out of every message.
  const shown = (url: string) => url.replace(/api_key=[^&]*/, 'api_key=…');

  async function get(url: string, exporting = false): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await (exporting ? sendExport(url) : send(url));
      } catch (e) {
        if (attempt >= MAX_ATTEMPTS)
          throw new NasdaqDataLinkError(null, `Nasdaq Data Link did not answer ${shown(url)}: ${(e as Error).message}`);
        await wait(attempt, null, `no answer (${(e as Error).message})`);
        continue;
      }
      if (response.ok) return response;
      const text = await response.text().catch(() => '');
      if (!TRANSIENT.has(response.status) || attempt >= MAX_ATTEMPTS)
        throw new NasdaqDataLinkError(
          response.status,
          `Nasdaq Data Link answered HTTP ${response.status} for ${shown(url)}: ${errorText(text)}`,
        );
      await wait(attempt, response.headers.get('retry-after'), `HTTP ${response.status} ${errorText(text)}`);
    }
  }

  async function wait(attempt: number, retryAfter: string | null, why: string) {
    const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
    const ms = seconds !== null ? seconds * 1000 : 500 * 2 ** (attempt - 1);
    onWait(`Nasdaq Data Link: ${why}; waiting ${(ms / 1000).toFixed(1)} s`);
    await sleep(ms);
  }

  async function json<T>(url: string, schema: z.ZodType<T>, exporting = false): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const response = await get(url, exporting);
      let body: unknown;
      try {
        body = JSON.parse(await response.text());
      } catch (e) {
        // A body cut off mid-way: ask again.
        if (attempt >= MAX_ATTEMPTS)
          throw new NasdaqDataLinkError(200, `Nasdaq Data Link sent broken JSON for ${shown(url)}: ${(e as Error).message}`);
        await wait(attempt, null, 'an incomplete answer');
        continue;
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new NasdaqDataLinkError(200, `Nasdaq Data Link's answer for ${shown(url)} is not a table page`);
      return parsed.data;
    }
  }

  return {
    async page(table, filters, cursor) {
      const query = new URLSearchParams({ ...filters, 'qopts.per_page': PER_PAGE, api_key: options.apiKey });
      if (cursor) query.set('qopts.cursor_id', cursor);
      const body = await json(`${base(table)}?${query}`, PageSchema);
      return { columns: body.datatable.columns.map((c) => c.name), rows: body.datatable.data, next: body.meta?.next_cursor_id ?? null };
    },
    async exportTable(table) {
      const query = new URLSearchParams({ 'qopts.export': 'true', api_key: options.apiKey });
      const url = `${base(table)}?${query}`;
      for (;;) {
        const { file } = (await json(url, ExportSchema, true)).datatable_bulk_download;
        if (file.status.toLowerCase() === 'fresh' && file.link) {
          const download = await get(file.link);
          return new Uint8Array(await download.arrayBuffer());
        }
        onWait(`Nasdaq Data Link is preparing the ${table} export (${file.status}); waiting`);
        await sleep(options.exportPollMs ?? 15_000);
      }
    },
  };
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { quandl_error?: { code?: string; message?: string } };
    if (body.quandl_error) return `${body.quandl_error.code ?? ''} ${body.quandl_error.message ?? ''}`.trim();
  } catch {
    // not JSON
  }
  return text.slice(0, 200);
}

/** A page's rows as CSV lines (every text cell quoted), so the Sharadar CSV parsers read them. */
export function csvLines(rows: DatatablePage['rows']): string[] {
  return rows.map((r) => r.map((v) => (v === null ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v))).join(','));
}
