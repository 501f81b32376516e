import { barAt, type AlignedPrices } from './aligned-prices';

// A book's value curve, computed in batches. Valuing period by period would visit every held
// security's bars once per period, thousands of scattered reads for the equal-weighted universe
// (cache and TLB misses dominate). Each period's positions are recorded instead (security, units,
// last day held; in series order), and a batch of periods is valued one security at a time, each
// walking its bars across the batch in one sequential run. Securities are visited in ascending
// series order, so every day's positions are still summed in permaticker order: the same numbers
// as valuing each period on its own.

/** Positions recorded before a batch is valued (about 2 MB of entries)… */
const BATCH = 1 << 17;
/** …or periods (the merge looks at every period's next entry). */
const MAX_PERIODS = 256;

export class Valuation {
  private series = new Int32Array(1024);
  private units = new Float64Array(1024);
  private to = new Int32Array(1024);
  private count = 0;
  /** Per recorded period: its first entry and its first day (entries of a period ascend by series). */
  private periodStart: number[] = [];
  private periodFrom: number[] = [];
  /** Calendar days [spanStart, spanEnd] whose cash is in `out` and whose positions are pending. */
  private spanStart = -1;
  private spanEnd = -1;

  /**
   * @param out the curve: the book writes each day's cash into it, valuing adds the positions
   */
  constructor(
    private readonly prices: AlignedPrices,
    private readonly out: Float64Array,
  ) {}

  /** Calendar days a..b have their cash in `out`; positions follow with `hold`. */
  cover(a: number, b: number): void {
    if (this.spanStart < 0) this.spanStart = a;
    this.spanEnd = b;
  }

  /**
   * The book's positions (series `held[0..count)` ascending, `units` by series) are held at the
   * closes of calendar days a..b, each until the day before it is settled (`settle`, by series).
   */
  hold(held: Int32Array, count: number, units: Float64Array, settle: Int32Array, a: number, b: number): void {
    while (this.count + count > this.series.length) this.grow();
    const { series, to } = this;
    const unitsOut = this.units;
    let k = this.count;
    this.periodStart.push(k);
    this.periodFrom.push(a);
    for (let j = 0; j < count; j++) {
      const i = held[j];
      const last = settle[i] <= b ? Math.max(a, settle[i]) - 1 : b;
      if (last < a) continue;
      series[k] = i;
      unitsOut[k] = units[i];
      to[k] = last;
      k++;
    }
    this.count = k;
  }

  /** Values the pending days when enough positions are recorded (call between periods). */
  maybeFlush(): void {
    if (this.count >= BATCH || this.periodStart.length >= MAX_PERIODS) this.flush();
  }

  /** Adds every pending position to the curve. */
  flush(): void {
    if (this.spanStart < 0) return;
    const { prices, out, series, units, to } = this;
    const base = this.spanStart;
    const acc = new Float64Array(this.spanEnd - base + 1);
    // Merge of the periods' entry lists (each ascending by series): one cursor per period.
    const periods = this.periodStart.length;
    const cursor = Int32Array.from(this.periodStart);
    const end = Int32Array.from({ length: periods }, (_, p) => (p + 1 < periods ? this.periodStart[p + 1] : this.count));
    const from = Int32Array.from(this.periodFrom);
    const { tri: triOf, first, lastIn, offset, gaps } = prices;
    for (;;) {
      let i = 0x7fffffff;
      for (let p = 0; p < periods; p++) if (cursor[p] < end[p] && series[cursor[p]] < i) i = series[cursor[p]];
      if (i === 0x7fffffff) break;
      const tri = triOf[i];
      const g = gaps[i];
      const f = first[i];
      const l = lastIn[i];
      const off = offset[i];
      for (let p = 0; p < periods; p++) {
        const k = cursor[p];
        if (k >= end[p] || series[k] !== i) continue;
        cursor[p] = k + 1;
        const u = units[k];
        const stop = to[k];
        let t = from[p];
        if (g === null) {
          // Dense: before the first bar the bar before the calendar, then one bar per day, then the last.
          if (t < f) {
            const v = u * tri[off + f - 1];
            for (; t < f && t <= stop; t++) acc[t - base] += v;
          }
          // One bar per day: unrolled (the hot loop of a run; each day's sum keeps its order).
          const last = l < stop ? l : stop;
          for (; t + 3 <= last; t += 4) {
            acc[t - base] += u * tri[off + t];
            acc[t + 1 - base] += u * tri[off + t + 1];
            acc[t + 2 - base] += u * tri[off + t + 2];
            acc[t + 3 - base] += u * tri[off + t + 3];
          }
          for (; t <= last; t++) acc[t - base] += u * tri[off + t];
          if (t <= stop) {
            const v = u * tri[off + l];
            for (; t <= stop; t++) acc[t - base] += v;
          }
        } else {
          let c = barAt(prices, i, t);
          let gp = 0;
          while (gp < g.length && g[gp] <= t) gp++;
          acc[t - base] += u * tri[c];
          for (t++; t <= stop; t++) {
            if (t >= f && t <= l) {
              if (gp < g.length && g[gp] === t) gp++;
              else c++;
            }
            acc[t - base] += u * tri[c];
          }
        }
      }
    }
    for (let t = base; t <= this.spanEnd; t++) out[t] = out[t] + acc[t - base];
    this.count = 0;
    this.periodStart = [];
    this.periodFrom = [];
    this.spanStart = -1;
    this.spanEnd = -1;
  }

  private grow(): void {
    const size = this.series.length * 2;
    const series = new Int32Array(size);
    series.set(this.series);
    const units = new Float64Array(size);
    units.set(this.units);
    const to = new Int32Array(size);
    to.set(this.to);
    this.series = series;
    this.units = units;
    this.to = to;
  }
}
