import type { CorporateActionRecord, FactRecord, MarketWriter, PriceRecord, SecurityRecord } from '../store/records';

// Groups many securities' rows into one writer transaction. Every commit costs a disk sync, so a
// transaction per ticker makes a 500-ticker panel wait on 500 syncs; the writer publishes the
// whole run atomically anyway, so a batch boundary is only a memory bound, not a safety one.
// New permatickers are handed out here, because the store's "next free id" does not see
// securities still waiting in the batch.

export type SecurityWork = {
  permaticker: number;
  /** Written only for securities this run creates; others keep the row their source wrote. */
  security: SecurityRecord | null;
  /** For a security another source created: what this source knows, to fill the gaps of its row. */
  details?: SecurityRecord;
  prices?: PriceRecord[];
  actions?: CorporateActionRecord[];
  facts?: FactRecord[];
};

export class BatchWriter {
  private pending = new Map<number, SecurityWork>();
  private rows = 0;
  private nextFree: number | null = null;

  constructor(
    private readonly writer: MarketWriter,
    private readonly source: string,
    private readonly maxRows = 250_000,
  ) {}

  /** An id for a new security, unique against the store and this batch. */
  async newPermaticker(): Promise<number> {
    if (this.nextFree === null) this.nextFree = await this.writer.nextPermaticker();
    return this.nextFree++;
  }

  async add(work: SecurityWork): Promise<void> {
    // The same security seen again in this run (a later file): the later rows win.
    const previous = this.pending.get(work.permaticker);
    if (previous)
      this.pending.set(work.permaticker, {
        ...work,
        security: work.security ?? previous.security,
        details: work.details ?? previous.details,
      });
    else this.pending.set(work.permaticker, work);
    this.rows += (work.prices?.length ?? 0) + (work.facts?.length ?? 0) + (work.actions?.length ?? 0) + 1;
    if (this.rows >= this.maxRows) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.rows = 0;
    await this.writer.transaction(async (tx) => {
      const securities = batch.flatMap((w) => (w.security ? [w.security] : []));
      if (securities.length > 0) await tx.upsertSecurities(securities);
      const details = batch.flatMap((w) => (w.details && !w.security ? [w.details] : []));
      if (details.length > 0) await tx.fillSecurityGaps(details);
      const withPrices = batch.filter((w) => w.prices);
      if (withPrices.length > 0)
        await tx.replacePrices(
          withPrices.map((w) => w.permaticker),
          withPrices.flatMap((w) => w.prices!),
        );
      const withActions = batch.filter((w) => w.actions);
      if (withActions.length > 0)
        await tx.replaceActions(
          withActions.map((w) => w.permaticker),
          this.source,
          withActions.flatMap((w) => w.actions!),
        );
      const withFacts = batch.filter((w) => w.facts);
      if (withFacts.length > 0)
        await tx.replaceFacts(
          withFacts.map((w) => w.permaticker),
          this.source,
          withFacts.flatMap((w) => w.facts!),
        );
    });
    // Committed: the store's own counter now covers every id handed out.
    this.nextFree = null;
  }
}

/** `--batch-rows N`: rows per transaction (default 250,000); smaller uses less memory. */
export function batchRows(flag: string | true | undefined): number | undefined {
  if (flag === undefined) return undefined;
  const n = Number(flag);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--batch-rows needs a positive whole number, got ${String(flag)}`);
  return n;
}
