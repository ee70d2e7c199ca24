/** A progress bar per bulk file: bytes read (compressed), rows, rows per second and refused rows. */
import cliProgress from 'cli-progress'
import type { BulkProgress } from './index.js'

export function createBulkProgress() {
  const bars = new cliProgress.MultiBar({
    format: '{file} |{bar}| {percentage}% | {rows} rows | {rate} rows/s | {bad} refused',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, clearOnComplete: false,
  }, cliProgress.Presets.shades_classic)
  const byFile = new Map<string, { bar: cliProgress.SingleBar; started: number }>()
  return {
    update(p: BulkProgress) {
      let entry = byFile.get(p.file)
      if (!entry) byFile.set(p.file, (entry = { bar: bars.create(Math.max(1, p.totalBytes), 0, { file: p.file, rows: 0, rate: 0, bad: 0 }), started: Date.now() }))
      const secs = Math.max(0.001, (Date.now() - entry.started) / 1000)
      entry.bar.update(Math.min(p.bytes, p.totalBytes), { file: p.file, rows: p.rows, rate: Math.round(p.rows / secs), bad: p.bad })
    },
    stop() { bars.stop() },
  }
}
