import path from 'node:path';
import { config } from '../config.server';
import { importers } from '../market/importers/index.server';
import { afterMarketDataChange } from './post-import.server';
import { recordFailedImport } from '../market/store/import-failures.server';
import type { ImportContext, ImportSummary, ProgressReporter } from '../market/store/records';
import { openMarketWriter } from '../market/store/writer.server';
import type { SnapshotBuildResult } from '../metrics/snapshots.server';

// One import into MARKET_DB, the same whether the data CLI or a job worker runs it: the importer
// writes a work copy, the metric snapshots are rebuilt on it, and only then is it published by
// an atomic rename. Any failure (a bad file, a cancel) discards the copy, so the published store
// is unchanged, and is recorded in the store's import_runs for `status` and the admin page.

export const IMPORT_SOURCES = ['prices', 'sec', 'sharadar', 'tiingo', 'nasdaq'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export function isImportSource(name: string): name is ImportSource {
  return (IMPORT_SOURCES as readonly string[]).includes(name);
}

export function importerUsage(source: ImportSource): string {
  return importers[source].usage;
}

/** What importers may know of the environment: keys, provider addresses and the download cache. */
export function importEnv(): ImportContext['env'] {
  const c = config();
  return {
    secUserAgent: c.secUserAgent,
    secEdgarUrl: c.secEdgarUrl,
    secArchivesUrl: c.secArchivesUrl,
    tiingo: c.providers.tiingo,
    nasdaqDataLink: c.providers.nasdaqDataLink,
    cacheDir: path.join(c.dataDir, 'providers'),
  };
}

/** `beforePublish` runs last, before the rename: a job asks there whether it was cancelled meanwhile. */
export async function runMarketImport(
  source: ImportSource,
  args: string[],
  progress: ProgressReporter,
  beforePublish: () => Promise<void> = async () => {},
): Promise<ImportSummary> {
  const file = config().marketDb;
  const startedAt = new Date().toISOString();
  const writer = await openMarketWriter(file);
  try {
    const summary = await importers[source].run(args, {
      writer,
      progress,
      env: importEnv(),
      fetch: globalThis.fetch,
    });
    let built: SnapshotBuildResult | null = null;
    await writer.publish({
      beforeRename: async (workFile) => {
        built = (await afterMarketDataChange(workFile, progress)).snapshots;
      },
      confirm: beforePublish,
    });
    const b = built as SnapshotBuildResult | null;
    return b ? { ...summary, snapshotDates: { built: b.built, total: b.dates } } : summary;
  } catch (e) {
    await writer.discard();
    await recordFailedImport(file, { source, startedAt, error: e instanceof Error ? e.message : String(e) }).catch((recording: unknown) =>
      progress.log(
        `warning: the failed run could not be recorded in the store: ${recording instanceof Error ? recording.message : String(recording)}`,
      ),
    );
    throw e;
  }
}
