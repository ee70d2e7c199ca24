/**
 * `lds ingest mirror --from <base-url>`: the CLI's side of the mirror (connectors/mirror/): reads
 * the options, shows progress on stderr, stops cleanly on SIGINT or SIGTERM (the page in hand is
 * published and checkpointed first) and returns the report.
 */
import type { PublisherDeps } from '../../core/events/publisher.js'
import { runMirror, DEFAULT_BUDGET_PER_HOUR, type MirrorReport } from '../../connectors/mirror/mirror.js'
import { createMirrorProgress } from '../../connectors/mirror/progress.js'

export interface IngestMirrorOptions {
  from: string
  token?: string
  resources?: string
  since?: string
  budget?: number
  follow?: boolean
  every: number
  restart?: boolean
  progress?: boolean
  /** Seconds of the first wait after a 5xx, doubled per retry. */
  backoff?: number
  /** Date_modified ranges of a list read at once. */
  parallel?: number
}

/** `--since` as ISO 8601 (a date means its midnight UTC), refused when it is no date. */
export function parseSince(text: string | undefined): string | undefined {
  if (!text) return undefined
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
  if (Number.isNaN(ms)) throw new Error(`--since ${JSON.stringify(text)} is not a date or time (ISO 8601)`)
  return new Date(ms).toISOString()
}

export async function ingestMirror(rt: PublisherDeps, o: IngestMirrorOptions): Promise<MirrorReport> {
  const budgetPerHour = o.budget ?? DEFAULT_BUDGET_PER_HOUR
  const progress = o.progress === false ? undefined : createMirrorProgress({ budgetPerHour })
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    return await runMirror(rt, {
      from: o.from, token: o.token ?? process.env.LDS_MIRROR_TOKEN, resources: o.resources?.split(',').map((s) => s.trim()).filter(Boolean),
      since: parseSince(o.since), budgetPerHour, followEveryMs: o.follow ? o.every * 60_000 : undefined, restart: o.restart,
      progress, signal: stop.signal,
      minBackoffMs: o.backoff === undefined ? undefined : o.backoff * 1000,
      parallelRanges: o.parallel,
    })
  } finally {
    progress?.stop()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
