import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TiingoBarSchema, type TiingoBar } from './tiingo-client.server';

// Every answer Tiingo sends is kept under DATA_DIR/providers/tiingo, a file per ticker, written
// whole (temporary file + rename) as soon as it arrives. A run stopped by a limit, the network,
// Ctrl-C or kill -9 leaves the tickers it already fetched here; the next run of the same work
// takes them from disk instead of spending requests on them again. Later runs ask only for the
// days after the newest cached one, and the split adjustment is computed again from these raw
// bars, so a split on a new day needs no re-download of the history.

const CachedSchema = z.object({
  ticker: z.string(),
  /** The startDate the history was asked from (null = all of it). */
  from: z.string().nullable(),
  bars: z.array(TiingoBarSchema),
});

export type CachedHistory = z.infer<typeof CachedSchema>;

const PendingSchema = z.object({ key: z.string(), done: z.array(z.string()) });

export class TiingoCache {
  private readonly dailyDir: string;
  private readonly pendingFile: string;

  constructor(root: string) {
    this.dailyDir = path.join(root, 'tiingo', 'daily');
    this.pendingFile = path.join(root, 'tiingo', 'pending-run.json');
    mkdirSync(this.dailyDir, { recursive: true });
  }

  read(ticker: string): CachedHistory | null {
    const parsed = CachedSchema.safeParse(readJson(this.fileOf(ticker)));
    return parsed.success ? parsed.data : null;
  }

  write(history: CachedHistory): void {
    writeWhole(this.fileOf(history.ticker), JSON.stringify(history));
  }

  /** Tickers an unfinished run with this key already fetched (empty when the last run was other work). */
  resumable(key: string): Set<string> {
    const parsed = PendingSchema.safeParse(readJson(this.pendingFile));
    return new Set(parsed.success && parsed.data.key === key ? parsed.data.done : []);
  }

  markDone(key: string, done: Set<string>): void {
    writeWhole(this.pendingFile, JSON.stringify({ key, done: [...done] }));
  }

  /** The run got all it needed: a new run of the same work fetches what is new again. */
  clearPending(): void {
    rmSync(this.pendingFile, { force: true });
  }

  private fileOf(ticker: string): string {
    return path.join(this.dailyDir, `${ticker.toUpperCase().replace(/[^A-Z0-9.-]/g, '_')}.json`);
  }
}

/** Old bars up to the first new day, then the new ones (a re-sent day replaces the cached one). */
export function mergeBars(old: TiingoBar[], fresh: TiingoBar[]): TiingoBar[] {
  if (fresh.length === 0) return old;
  const first = fresh[0].date;
  return [...old.filter((b) => b.date < first), ...fresh];
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

function writeWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
