/** Small statistics and formatting helpers shared by the benchmarks. */

/** The q-quantile (0..1) of ascending-sorted values, nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[i]
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–')
export const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString()) : '–')
export const fmtRatio = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–')

/** A plain text table: the first row is the header; numbers are right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const numeric = (s: string) => /^[-–+]?[\d,.]+( ?[%×a-z]*)?$/.test(s) || s === '–'
  return rows.map((r, n) => {
    const line = r.map((cell, i) => (n > 0 && i > 0 && numeric(cell) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ')
    return n === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line
  }).join('\n')
}
