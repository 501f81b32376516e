import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FilingSecurity, ImportContext, Importer, ImportSummary, SecurityRecord } from '../store/records';
import { ImportFileError } from '../store/records';
import { batchRows, BatchWriter } from './batch-writer.server';
import { expandPaths, parseArgs, parseJson, readText } from './files.server';
import { zipEntries } from './zip-entries.server';
import {
  companyFactsUrl,
  createEdgarClient,
  DEFAULT_EDGAR_URL,
  SecHttpError,
  submissionsUrl,
  tickersUrl,
  DEFAULT_ARCHIVES_URL,
  type EdgarClient,
} from './sec/edgar-client.server';
import { normaliseCik, parseCompanyFacts } from './sec/parse-companyfacts';
import { COMPANYFACTS_ZIP_PATH, downloadArchive, openZipArchive, SUBMISSIONS_ZIP_PATH, type ZipArchive } from './sec/bulk-archive.server';
import { isCompanyTickers, parseCompanyTickers, type TickerListing } from './sec/parse-company-tickers';
import { isSubmissionsOverflow, parseSubmissions, type SecProfile } from './sec/parse-submissions';

// SEC EDGAR importer: companyfacts JSON (files, folders, the bulk companyfacts.zip, or data.sec.gov
// for given tickers), with submissions / company_tickers documents for ticker, exchange and sector.
// Companies are written in batched transactions; the writer publishes the whole run at once, so a
// killed run leaves the store as it was and a re-run redoes the same work in the same (CIK) order.

const USAGE = `import sec <companyfacts.json|folder|companyfacts.zip|submissions.json|company_tickers.json>... [--tickers AAPL,MSFT] [--ciks 320193,...] [--batch-rows N]
  import sec --online --tickers AAPL,MSFT   (needs SEC_USER_AGENT, e.g. "Jane Doe jane@example.com")
  import sec --bulk [--tickers AAPL,MSFT]   (every filer, or the listed ones, from the SEC's nightly companyfacts.zip and
    submissions.zip; downloaded to DATA_DIR/providers/sec, a stopped download continues; needs SEC_USER_AGENT)
  import sec --refresh   (every company in the store with a CIK: companyfacts again only after a new 10-K/10-Q; what \`npm run data -- refresh\` runs)
  SEC_EDGAR_URL points at a proxy or test server instead of https://data.sec.gov (and of www.sec.gov for the ticker list and bulk archives); at most 10 requests/s, 429 and 5xx retried.`;

/** Where one company's companyfacts document comes from. */
type FactsSource = { cik: string; label: string; load(): Promise<unknown> };

export const secImporter: Importer = {
  name: 'sec',
  usage: USAGE,
  async run(args, ctx) {
    const archives: ZipArchive[] = [];
    try {
      return await importSec(args, ctx, archives);
    } finally {
      for (const a of archives) a.close();
    }
  },
};

async function importSec(args: string[], ctx: ImportContext, archives: ZipArchive[]): Promise<ImportSummary> {
  const { paths, flags } = parseArgs(args, ['tickers', 'ciks', 'batch-rows']);
  const wantedTickers = listFlag(flags.get('tickers')).map((t) => t.toUpperCase());
  const wantedCiks = new Set(listFlag(flags.get('ciks')).map((c) => c.replace(/^CIK/i, '').padStart(10, '0')));
  const warnings: string[] = [];
  const profiles = new Map<string, SecProfile>();
  const listings = new Map<string, TickerListing>();
  let sources: FactsSource[];

  const refresh = flags.has('refresh');
  // Each company's newest SEC fact as the store has it, for --refresh: only a company with a
  // periodic report filed after it has its companyfacts fetched again.
  const held = new Map<string, FilingSecurity>();
  let client: EdgarClient | null = null;
  if (flags.has('bulk')) {
    if (!ctx.env.secUserAgent)
      throw new Error(
        'SEC bulk import refused: set SEC_USER_AGENT to a name and e-mail (e.g. "Jane Doe jane@example.com"); the SEC blocks undeclared clients.',
      );
    if (!ctx.env.cacheDir) throw new Error('SEC bulk import needs a cache folder (DATA_DIR).');
    const base = ctx.env.secArchivesUrl ?? DEFAULT_ARCHIVES_URL;
    const fetchImpl = ctx.fetch ?? globalThis.fetch;
    if (wantedTickers.length > 0) {
      const url = tickersUrl(base);
      const edgar = createEdgarClient({ userAgent: ctx.env.secUserAgent, fetch: fetchImpl });
      for (const l of parseCompanyTickers(await edgar.getJson(url), url)) addListing(listings, l);
      for (const t of wantedTickers) {
        const hit = [...listings.values()].find((l) => l.ticker === t);
        if (!hit) throw new Error(`Unknown ticker ${t}: not in the SEC's ticker list`);
        wantedCiks.add(hit.cik);
      }
    }
    const download = { userAgent: ctx.env.secUserAgent, fetch: fetchImpl, log: (m: string) => ctx.progress.log(m) };
    const dir = path.join(ctx.env.cacheDir, 'sec');
    const factsFile = await downloadArchive(`${base}${COMPANYFACTS_ZIP_PATH}`, dir, download);
    const submissionsFile = await downloadArchive(`${base}${SUBMISSIONS_ZIP_PATH}`, dir, download);
    const factsZip = await openZipArchive(factsFile);
    archives.push(factsZip);
    const submissionsZip = await openZipArchive(submissionsFile);
    archives.push(submissionsZip);
    sources = [];
    for (const [name, entry] of factsZip.entries) {
      const m = /^CIK(\d{10})\.json$/i.exec(path.basename(name));
      if (!m || (wantedCiks.size > 0 && !wantedCiks.has(m[1]))) continue;
      const label = `${factsFile}!${name}`;
      sources.push({ cik: m[1], label, load: async () => parseJson((await factsZip.read(entry)).toString('utf8'), label) });
    }
    sources.sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
    for (const cik of wantedCiks)
      if (!sources.some((s) => s.cik === cik)) warnings.push(`CIK ${cik}: not in companyfacts.zip (no XBRL financial data)`);
    // Profiles only of the companies imported: submissions.zip lists every filer, most without facts.
    ctx.progress.start('SEC submissions', sources.length);
    for (const source of sources) {
      const entry = submissionsZip.entries.get(`CIK${source.cik}.json`);
      if (entry) {
        const label = `${submissionsFile}!${entry.fileName}`;
        profiles.set(source.cik, parseSubmissions(parseJson((await submissionsZip.read(entry)).toString('utf8'), label), label));
      }
      ctx.progress.tick();
    }
    ctx.progress.stop();
  } else if (flags.has('online') || refresh) {
    if (!ctx.env.secUserAgent) {
      throw new Error(
        `${refresh ? 'SEC refresh' : 'Online SEC import'} refused: set SEC_USER_AGENT to a name and e-mail (e.g. "Jane Doe jane@example.com"); the SEC blocks undeclared clients.`,
      );
    }
    const base = ctx.env.secEdgarUrl ?? DEFAULT_EDGAR_URL;
    const edgar = createEdgarClient({ userAgent: ctx.env.secUserAgent, fetch: ctx.fetch ?? globalThis.fetch });
    client = edgar;
    if (refresh) {
      for (const s of await ctx.writer.filingSecurities()) if (!held.has(s.cik)) held.set(s.cik, s);
      if (held.size === 0)
        throw new Error('Nothing to refresh from SEC: the store has no securities with a CIK (import SEC filings first).');
      for (const cik of held.keys()) wantedCiks.add(cik);
    } else if (wantedTickers.length > 0) {
      // The list is on www.sec.gov, not data.sec.gov: SEC_EDGAR_URL redirects both (secArchivesUrl).
      const url = tickersUrl(ctx.env.secArchivesUrl ?? DEFAULT_ARCHIVES_URL);
      for (const l of parseCompanyTickers(await edgar.getJson(url), url)) addListing(listings, l);
      for (const t of wantedTickers) {
        const hit = [...listings.values()].find((l) => l.ticker === t);
        if (!hit) throw new Error(`Unknown ticker ${t}: not in the SEC's ticker list`);
        wantedCiks.add(hit.cik);
      }
    }
    if (wantedCiks.size === 0) throw new Error(`Online SEC import needs --tickers or --ciks.\n${USAGE}`);
    let ciks = [...wantedCiks].sort();
    ctx.progress.start('SEC submissions', ciks.length);
    for (const cik of ciks) {
      try {
        profiles.set(cik, parseSubmissions(await edgar.getJson(submissionsUrl(cik, base)), submissionsUrl(cik, base)));
      } catch (e) {
        if (!(e instanceof SecHttpError && e.status === 404)) throw e;
        warnings.push(`${submissionsUrl(cik, base)}: not found; ticker and sector unknown`);
      }
      ctx.progress.tick();
    }
    ctx.progress.stop();
    if (refresh) {
      ciks = ciks.filter((cik) => {
        const filed = profiles.get(cik)?.lastReportFiled ?? null;
        const have = held.get(cik)?.lastFiled ?? null;
        return filed !== null && (have === null || filed > have);
      });
      ctx.progress.log(`SEC: ${ciks.length} of ${held.size} companies have a new periodic report.`);
    }
    sources = ciks.map((cik) => ({
      cik,
      label: companyFactsUrl(cik, base),
      // Downloaded inside the company loop, so memory holds one company at a time.
      async load() {
        try {
          return await edgar.getJson(companyFactsUrl(cik, base));
        } catch (e) {
          if (e instanceof SecHttpError && e.status === 404) return null;
          throw e;
        }
      },
    }));
  } else {
    if (paths.length === 0) throw new Error(`No input files.\n${USAGE}`);
    sources = [];
    for (const file of expandPaths(paths, (f) => /\.(json|zip)$/i.test(f))) {
      if (/\.zip$/i.test(file)) {
        const zip = readFileSync(file);
        for (const entry of zipEntries(zip, file)) {
          const m = /CIK(\d{10})\.json$/i.exec(entry.name);
          if (!m || entry.name.includes('-submissions-')) continue;
          const label = `${file}!${entry.name}`;
          sources.push({ cik: m[1], label, load: async () => parseJson(new TextDecoder().decode(entry.read()), label) });
        }
        continue;
      }
      const doc = parseJson(readText(file), file);
      if (isCompanyTickers(doc)) {
        for (const l of parseCompanyTickers(doc, file)) addListing(listings, l);
      } else if (isSubmissionsOverflow(doc)) {
        continue;
      } else if (typeof doc === 'object' && doc !== null && 'filings' in doc) {
        const profile = parseSubmissions(doc, file);
        profiles.set(profile.cik, profile);
      } else if (typeof doc === 'object' && doc !== null && 'facts' in doc) {
        const cik = normaliseCik((doc as Record<string, unknown>).cik, file);
        // Read again when its turn comes: a folder of thousands of 4 MB documents does not fit.
        sources.push({ cik, label: file, load: async () => parseJson(readText(file), file) });
      } else {
        throw new ImportFileError(file, null, 'not an SEC companyfacts, submissions or company_tickers document');
      }
    }
    if (wantedTickers.length > 0) {
      for (const t of wantedTickers) {
        const cik = [...profiles.values()].find((p) => p.ticker === t)?.cik ?? [...listings.values()].find((l) => l.ticker === t)?.cik;
        if (!cik) throw new Error(`Unknown ticker ${t}: give a company_tickers.json or submissions file that lists it, or use --ciks`);
        wantedCiks.add(cik);
      }
    }
    if (wantedCiks.size > 0) sources = sources.filter((s) => wantedCiks.has(s.cik));
    sources.sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : a.label < b.label ? -1 : 1));
  }

  let companies = 0;
  let rows = 0;
  let newFacts = 0;
  const batch = new BatchWriter(ctx.writer, 'sec', batchRows(flags.get('batch-rows')));
  const created = new Map<string, number>();
  ctx.progress.start('SEC companyfacts', sources.length);
  for (const source of sources) {
    const doc = await source.load();
    if (doc === null || doc === undefined) {
      warnings.push(`${source.label}: not found (no XBRL financial data for CIK ${source.cik})`);
      ctx.progress.tick();
      continue;
    }
    const { written, filedDates, warnings: w } = await importCompany(doc, source.label, profiles, listings, ctx, batch, created);
    warnings.push(...w);
    companies += 1;
    rows += written;
    const since = held.get(source.cik)?.lastFiled ?? null;
    newFacts += since === null ? written : filedDates.filter((d) => d > since).length;
    ctx.progress.tick();
  }
  await batch.flush();
  ctx.progress.stop();
  const detail = refresh
    ? `${companies} companies refreshed, ${newFacts} new facts, ${client?.requests ?? 0} requests`
    : `${companies} companies, ${rows} facts`;
  const { snapshotId } = await ctx.writer.finish('sec', detail);
  const summary: ImportSummary = { source: 'sec', securities: companies, rows: refresh ? newFacts : rows, snapshotId, warnings };
  return summary;
}

async function importCompany(
  doc: unknown,
  label: string,
  profiles: Map<string, SecProfile>,
  listings: Map<string, TickerListing>,
  ctx: ImportContext,
  batch: BatchWriter,
  created: Map<string, number>,
): Promise<{ written: number; filedDates: string[]; warnings: string[] }> {
  // Parse first with a placeholder id so a bad document fails before anything is looked up.
  const probe = parseCompanyFacts(doc, label, 0);
  const profile = profiles.get(probe.cik);
  const listing = listings.get(probe.cik);
  const ticker = profile?.ticker ?? listing?.ticker ?? null;
  const createdHere = created.get(probe.cik);
  const existing =
    createdHere ?? (await ctx.writer.findPermaticker({ cik: probe.cik })) ?? (ticker ? await ctx.writer.findPermaticker({ ticker }) : null);
  const permaticker = existing ?? (await batch.newPermaticker());
  if (existing === null) created.set(probe.cik, permaticker);
  const facts = probe.facts.map((f) => ({ ...f, permaticker }));
  const warnings = [...probe.warnings];
  if (!ticker) warnings.push(`${label}: no ticker known for CIK ${probe.cik}; stored as CIK${probe.cik}`);
  const record: SecurityRecord = {
    permaticker,
    ticker: ticker ?? `CIK${probe.cik}`,
    name: profile?.name || probe.entityName || listing?.name || `CIK${probe.cik}`,
    exchange: profile?.exchange ?? listing?.exchange ?? null,
    category: null,
    sector: profile?.sector ?? null,
    industry: profile?.industry ?? null,
    cik: probe.cik,
    firstPriceDate: null,
    lastPriceDate: null,
    isDelisted: profile?.isDelisted ?? false,
    source: 'sec',
  };
  // A security another source created (prices, Sharadar) keeps its row, price dates and
  // classification; the filings only fill in what it lacks (name, CIK, exchange, sector).
  const ours = existing === null || createdHere !== undefined;
  await batch.add({ permaticker, security: ours ? record : null, details: ours ? undefined : record, facts });
  return { written: facts.length, filedDates: facts.map((f) => f.filed), warnings };
}

/**
 * The first listing of a CIK is its primary ticker; a later list (company_tickers.json has no
 * exchanges, company_tickers_exchange.json does) may still fill in the exchange of that ticker.
 */
function addListing(listings: Map<string, TickerListing>, l: TickerListing): void {
  const current = listings.get(l.cik);
  if (!current) listings.set(l.cik, l);
  else if (current.exchange === null && current.ticker === l.ticker && l.exchange !== null)
    listings.set(l.cik, { ...current, exchange: l.exchange });
}

function listFlag(value: string | true | undefined): string[] {
  if (value === undefined || value === true) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
