import type { CompareOp } from '../expression';

// Comparisons where n/a never passes: NaN fails < > = by IEEE rules, but `NaN != 5` is true, so
// every operator checks for NaN explicitly.

export type Comparator = (a: number, b: number) => boolean;

export const COMPARATORS: Record<CompareOp, Comparator> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '=': (a, b) => a === b,
  '!=': (a, b) => a === a && b === b && a !== b,
};
