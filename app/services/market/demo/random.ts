import { xoroshiro128plus, type RandomGenerator } from 'pure-rand';

// Seeded randomness for the demo universe. Every company draws from its own stream (seed and
// company index mixed), so companies can be generated in any batch order with the same result.

const TWO_32 = 4294967296;

/** Mixes integers into one 32-bit seed (murmur3 finaliser), so nearby inputs give unrelated streams. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h ^= Math.imul((part | 0) ^ (Math.floor(part / TWO_32) | 0), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h | 0;
}

export class Rng {
  private readonly gen: RandomGenerator;
  private spare: number | null = null;

  constructor(seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
  }

  /** Uniform in (0, 1): never exactly 0, so logs are safe. */
  uniform(): number {
    return ((this.gen.unsafeNext() >>> 0) + 0.5) / TWO_32;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.uniform();
  }

  /** Integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.uniform() * (high - low + 1));
  }

  chance(p: number): boolean {
    return this.uniform() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.uniform() * items.length)];
  }

  /** Standard normal (Marsaglia polar method; the second value is kept for the next call). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    for (;;) {
      const u = 2 * this.uniform() - 1;
      const v = 2 * this.uniform() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const f = Math.sqrt((-2 * Math.log(s)) / s);
        this.spare = v * f;
        return u * f;
      }
    }
  }

  /**
   * Student-t with 6 degrees of freedom, scaled to unit variance: fat tails (excess kurtosis 3)
   * at the price of one normal and three uniforms (chi-square with 6 d.f. = -2 ln(u1 u2 u3)).
   */
  studentT6(): number {
    const chi2 = -2 * Math.log(this.uniform() * this.uniform() * this.uniform());
    return this.normal() * Math.sqrt(6 / chi2) * SCALE_T6;
  }

  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

// Var(t_6) = 6 / 4, so dividing by its square root gives unit variance.
const SCALE_T6 = Math.sqrt(4 / 6);
