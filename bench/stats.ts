// Summaries the benchmarks print: nearest-rank percentiles over a set of samples, and a plain
// text table with the first columns left-aligned and the figures right-aligned.

/** The value at quantile `q` (0..1) of samples sorted ascending, by nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of no samples');
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

/** n, median, p95, min and max of the samples; null when there are none. */
export function summarize(samples: readonly number[]): Summary | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** Columns padded to their widest cell; the first `textColumns` are text (left-aligned). */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], textColumns = 1): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    widths.map((w, c) => (c < textColumns ? (cells[c] ?? '').padEnd(w) : (cells[c] ?? '').padStart(w))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
