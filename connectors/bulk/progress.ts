/**
 * A progress bar per bulk file for the CLI: bytes read of the (compressed) file, rows
 * published, rows per second, MB per second, time left, refused rows, and how the file is read
 * (its format, and which program decompresses it). On a terminal the bars redraw in place;
 * otherwise (logs, CI) a line is printed every few seconds.
 */
import cliProgress from 'cli-progress'
import type { BulkProgress } from './index.js'
import { DIALECT_LABELS } from './dialect.js'

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++ }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`
}

/** 75 → '1m15s', 4000 → '1h06m'. */
export function formatSeconds(s: number): string {
  const n = Math.round(s)
  if (n < 60) return `${n}s`
  if (n < 3600) return `${Math.floor(n / 60)}m${String(n % 60).padStart(2, '0')}s`
  return `${Math.floor(n / 3600)}h${String(Math.floor((n % 3600) / 60)).padStart(2, '0')}m`
}

export interface BulkProgressBars {
  update(p: BulkProgress): void
  stop(): void
}

export function createBulkProgress(opts: { stream?: NodeJS.WritableStream; now?: () => number } = {}): BulkProgressBars {
  const now = opts.now ?? Date.now
  const bars = new cliProgress.MultiBar({
    format: '{file} |{bar}| {percentage}% {done}/{size} | {rows} rows {rate} rows/s {mbps} MB/s ETA {left} | {bad} refused | {how}',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, clearOnComplete: false, stopOnComplete: false,
    stream: opts.stream,
  }, cliProgress.Presets.shades_classic)
  const byFile = new Map<string, { bar: cliProgress.SingleBar; started: number }>()
  return {
    update(p: BulkProgress) {
      const total = Math.max(1, p.totalBytes)
      let entry = byFile.get(p.file)
      if (!entry) {
        entry = { bar: bars.create(total, 0), started: now() }
        byFile.set(p.file, entry)
      }
      const secs = Math.max(0.001, (now() - entry.started) / 1000)
      entry.bar.update(Math.min(p.bytes, total), {
        file: p.file, done: formatBytes(p.bytes), size: formatBytes(p.totalBytes), rows: p.rows,
        rate: Math.round(p.rows / secs), mbps: (p.bytes / 1e6 / secs).toFixed(1), bad: p.bad,
        left: p.bytes > 0 && p.bytes < total ? formatSeconds(((total - p.bytes) / p.bytes) * secs) : '-',
        how: [p.dialect ? DIALECT_LABELS[p.dialect] : undefined, p.decompressor && p.decompressor !== 'none' ? p.decompressor : undefined].filter(Boolean).join(', '),
      })
    },
    stop() { bars.stop() },
  }
}
