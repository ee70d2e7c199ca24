/**
 * Change → visible: how long after a change is published a reader sees it. Each round publishes a
 * new case_name for one docket of a list page (through the publisher, as any connector would, the
 * row taken from ClickHouse), then polls the docket's detail and the list page concurrently until
 * both show the new name (30 s at most). Times are from before the publish to the first answer
 * that shows it; a change never seen counts as Infinity and is described.
 */
import { sql, ident } from '../../core/sql.js'
import type { Runtime } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { percentile } from './stats.js'
import { getJson } from './http.js'
import { waitFor } from '../../test/kit/wait-for.js'

export interface Quantiles { p50: number; p99: number }
export interface Visibility { detail: Quantiles; list: Quantiles; publishAck: Quantiles; missed: number; missedNotes: Record<string, unknown>[] }

const quantiles = (values: number[]): Quantiles => {
  const s = [...values].sort((a, b) => a - b)
  return { p50: percentile(s, 0.5), p99: percentile(s, 0.99) }
}

export async function measureVisibility(rt: Runtime, opts: {
  origin: string; token: string; listPath: string; detailPath: (id: number) => string; changes: number; timeoutMs?: number; log: (m: string) => void
}): Promise<Visibility> {
  const { origin, token } = opts
  const timeoutMs = opts.timeoutMs ?? 30_000
  const page = (await getJson(origin + opts.listPath, token)).body as { results: { id: number }[] }
  const targets = page.results.map((o) => o.id)
  if (!targets.length) throw new Error(`the list ${opts.listPath} is empty`)
  const rows = new Map<number, Record<string, unknown>>()
  const found = await rt.db.query<Record<string, unknown>>(sql`
    SELECT * EXCEPT (_version, _deleted) FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('dockets')} FINAL WHERE id IN ${targets}`)
  for (const row of found) rows.set(Number(row.id), row)
  const listShows = async (id: number) => ((await getJson(origin + opts.listPath, token)).body?.results ?? []).find((o: { id: number }) => o.id === id)?.case_name
  const detailShows = async (id: number) => (await getJson(origin + opts.detailPath(id), token)).body?.case_name

  const pub = await openPublisher(rt)
  const detailMs: number[] = [], listMs: number[] = [], ackMs: number[] = []
  const missedNotes: Record<string, unknown>[] = []
  const stamp = Date.now().toString(36)
  try {
    for (let i = 0; i < opts.changes; i++) {
      const id = targets[i % targets.length]
      const name = `Bench ${stamp}-${i} v. Visibility`
      const started = performance.now()
      await pub.write('dockets', { upsert: { ...rows.get(id)!, case_name: name, date_modified: new Date().toISOString() } })
      ackMs.push(performance.now() - started)
      const until = async (shows: () => Promise<unknown>) => {
        const seen = await waitFor(async () => (await shows()) === name, `change ${i} visible`, Math.max(0, started + timeoutMs - performance.now()), 2).catch(() => false)
        return seen ? performance.now() - started : Infinity
      }
      const [d, l] = await Promise.all([until(() => detailShows(id)), until(() => listShows(id))])
      detailMs.push(d); listMs.push(l)
      if (!Number.isFinite(d) || !Number.isFinite(l)) {
        const note = { change: i, docket: id, detailMs: d, listShows: await listShows(id), detailShows: await detailShows(id), expected: name }
        missedNotes.push(note)
        opts.log(`  change ${i}: docket ${id} not visible within ${timeoutMs / 1000} s: the list shows ${JSON.stringify(note.listShows)}, the detail ${JSON.stringify(note.detailShows)}`)
      }
    }
  } finally { await pub.stop() }
  return { detail: quantiles(detailMs), list: quantiles(listMs), publishAck: quantiles(ackMs), missed: missedNotes.length, missedNotes }
}
