/**
 * A progress line per mirrored resource on stderr: records published, records per second, requests
 * used of the hour's budget, how the list is walked (a full pass in id order is said so, since it
 * finds changes only by reading everything again) and the latest wait for the source. On a terminal
 * the lines redraw in place; otherwise (logs, CI) they are printed every few seconds.
 */
import cliProgress from 'cli-progress'
import type { WalkMode } from './plan.js'

export interface ResourceProgress { resource: string; mode: WalkMode; records: number; requests: number; note?: string }

export interface MirrorProgress {
  update(p: ResourceProgress): void
  /** The mirror waits for the source (a 429, a 5xx being retried). */
  waiting(reason: string): void
  stop(): void
}

export const MODE_LABELS: Record<WalkMode, string> = {
  'modified-cursor': 'by date_modified',
  'modified-pages': 'by date_modified, page numbers',
  'id-pass': 'full pass in id order (no date_modified ordering)',
}

export function createMirrorProgress(opts: { budgetPerHour: number; stream?: NodeJS.WritableStream; now?: () => number }): MirrorProgress {
  const now = opts.now ?? Date.now
  const budget = opts.budgetPerHour > 0 ? opts.budgetPerHour.toLocaleString('en-US') + '/hour' : 'unlimited'
  const bars = new cliProgress.MultiBar({
    format: '{resource} | {records} records | {rate} rec/s | requests {requests} of {budget} | {mode}{note}',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, clearOnComplete: false, stopOnComplete: false,
    stream: opts.stream ?? process.stderr,
  }, cliProgress.Presets.shades_classic)
  const byResource = new Map<string, { bar: cliProgress.SingleBar; started: number; startRecords: number }>()
  let lastWait = { reason: '', at: 0 }
  return {
    update(p) {
      let entry = byResource.get(p.resource)
      if (!entry) {
        entry = { bar: bars.create(0, 0), started: now(), startRecords: p.records }
        byResource.set(p.resource, entry)
      }
      const secs = Math.max(0.001, (now() - entry.started) / 1000)
      // A wait is shown while it is recent: it tells why the rate dropped.
      const note = p.note ?? (lastWait.reason && now() - lastWait.at < 10_000 ? ` | ${lastWait.reason}` : '')
      entry.bar.update(0, {
        resource: p.resource, records: p.records.toLocaleString('en-US'), rate: Math.round((p.records - entry.startRecords) / secs),
        requests: p.requests.toLocaleString('en-US'), budget, mode: MODE_LABELS[p.mode], note: note && !note.startsWith(' | ') ? ` | ${note}` : note,
      })
    },
    waiting(reason) { lastWait = { reason, at: now() } },
    stop() { bars.stop() },
  }
}
