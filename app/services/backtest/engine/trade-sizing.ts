// How much stays invested after paying for the trades. Targets are weights of the invested amount
// N, and the costs come out of the same value V, so N solves
//     N + rate · Σ |wᵢ·N − cᵢ| = V − fixed · trades
// (cᵢ = current value of position i, wᵢ = its target weight, 0 when sold). The left side is
// piecewise linear and increasing in N (rate < 1), so walking its breakpoints cᵢ/wᵢ in ascending
// order gives the exact solution: no iteration, and with no costs N = V bit for bit.

export function investableAmount(value: number, current: Float64Array, weights: Float64Array, rate: number, fixedTotal: number): number {
  const budget = value - fixedTotal;
  if (rate === 0) return budget > 0 ? budget : 0;
  let sumC = 0;
  let sumW = 0;
  for (let i = 0; i < current.length; i++) {
    sumC += current[i];
    sumW += weights[i];
  }
  // Below every breakpoint every target is under its current value: g(N) = a + s·N.
  let a = rate * sumC;
  let s = 1 - rate * sumW;
  if (budget <= a) return 0;
  const order: number[] = [];
  for (let i = 0; i < current.length; i++) if (weights[i] > 0) order.push(i);
  order.sort((x, y) => current[x] / weights[x] - current[y] / weights[y] || x - y);
  for (const i of order) {
    const b = current[i] / weights[i];
    if (a + s * b >= budget) break;
    s += 2 * rate * weights[i];
    a -= 2 * rate * current[i];
  }
  return (budget - a) / s;
}
