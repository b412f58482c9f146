/** Small, dependency-free statistics for the bench. Every function ignores NaN. */

function finite(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v));
}

/** The p-th percentile (0..100) by linear interpolation between closest ranks; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = finite(values).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low]!;
  const highValue = sorted[high]!;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function max(values: readonly number[]): number {
  const list = finite(values);
  return list.length === 0 ? Number.NaN : Math.max(...list);
}

export function min(values: readonly number[]): number {
  const list = finite(values);
  return list.length === 0 ? Number.NaN : Math.min(...list);
}

/** (max - min) / median: how far the repetitions of one figure disagree. */
export function spread(values: readonly number[]): number {
  const m = median(values);
  return m === 0 || !Number.isFinite(m) ? Number.NaN : (max(values) - min(values)) / m;
}

export function ratio(value: number, base: number): number {
  return base === 0 || !Number.isFinite(base) || !Number.isFinite(value) ? Number.NaN : value / base;
}
