/** Drives the bulk export for the CLI: a progress bar per file on stderr, the manifest as the result. */
import cliProgress from 'cli-progress'
import type { Db } from '../../core/clickhouse.js'
import { exportBulk, type ExportOptions, type ExportProgress, type Manifest } from '../../connectors/bulk/export/index.js'
import { formatBytes } from '../../connectors/bulk/progress.js'
import { ensureLbzip2 } from '../../infra/debian.js'

/**
 * Bars per file: rows written of the rows the table has, rows per second and bytes. On a terminal
 * they redraw in place; otherwise a line every few seconds.
 */
export function createExportProgress(opts: { stream?: NodeJS.WritableStream; now?: () => number } = {}) {
  const now = opts.now ?? Date.now
  const bars = new cliProgress.MultiBar({
    format: '{file} |{bar}| {percentage}% | {rows}/{expected} rows {rate} rows/s | {size}',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, clearOnComplete: false, stopOnComplete: false,
    stream: opts.stream ?? process.stderr,
  }, cliProgress.Presets.shades_classic)
  const byFile = new Map<string, { bar: cliProgress.SingleBar; started: number }>()
  return {
    update(p: ExportProgress) {
      let entry = byFile.get(p.file)
      if (!entry) { entry = { bar: bars.create(Math.max(1, p.total), 0), started: now() }; byFile.set(p.file, entry) }
      const secs = Math.max(0.001, (now() - entry.started) / 1000)
      if (p.done) entry.bar.setTotal(Math.max(1, p.rows))
      entry.bar.update(p.done ? Math.max(1, p.rows) : Math.min(p.rows, Math.max(1, p.total)), {
        file: p.file, rows: p.rows, expected: p.total, rate: Math.round(p.rows / secs), size: formatBytes(p.bytes),
      })
    },
    stop() { bars.stop() },
  }
}

export async function runBulkExport(db: Db, dir: string, opts: ExportOptions & { progress?: boolean } = {}): Promise<Manifest> {
  if (!opts.compressor && (opts.format ?? 'reference-csv') === 'reference-csv') await ensureLbzip2()
  const progress = opts.progress === false ? undefined : createExportProgress()
  try {
    return await exportBulk(db, dir, { ...opts, onProgress: progress ? (p) => progress.update(p) : opts.onProgress })
  } finally { progress?.stop() }
}

/** What the CLI prints: the manifest without the per-file hashes' noise, as totals and files. */
export function manifestSummary(m: Manifest) {
  return {
    format: m.format, snapshot: m.snapshot, seconds: m.seconds,
    files: m.files.length, rows: m.files.reduce((s, f) => s + f.rows, 0), bytes: m.files.reduce((s, f) => s + f.bytes, 0),
    byFile: Object.fromEntries(m.files.map((f) => [f.name, { rows: f.rows, bytes: f.bytes, sha256: f.sha256, ...(f.unmapped ? { unmapped: f.unmapped } : {}) }])),
  }
}
