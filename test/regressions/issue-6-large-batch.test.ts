/**
 * Issue 6, bug 2: on the 10k-opinion sample the citation network crash-looped with ClickHouse's
 * "Field value too long": its `IN {ids}` and `hasAny(unresolved, {keys})` parameters grew with the
 * batch until they passed the HTTP form limit. Every key set now goes through `withKeys` (a
 * temporary table when large). Here one batch holds 100,000 opinions (and one 100,000 citations),
 * through every query of the processor, both orders of arrival, with no failure.
 */
import t from 'tap'
import { sql, ident } from '../../core/sql.js'
import { citationNetworkUnderTest } from '../helpers/citation-network.js'
import type { NetEvent } from '../../streams/citation-network.js'
import { createRng } from '../../connectors/sample/random.js'

const N = 100_000
const ts = '2024-01-01T00:00:00+00:00'
/** Cluster i (1-based) is cited as `<volume> U.S. <page>`, unique per cluster. */
const cite = (i: number) => ({ volume: 1 + Math.floor((i - 1) / 1000), page: String(((i - 1) % 1000) + 1) })

t.test('the citation network takes a batch of 100,000 opinions', async (t) => {
  const { rt, def, relinks } = await citationNetworkUnderTest(t)
  const rng = createRng(7)
  let version = 1
  const citations: NetEvent[] = []
  const opinions: NetEvent[] = []
  const cited = new Map<number, number[]>()
  for (let i = 1; i <= N; i++) {
    const { volume, page } = cite(i)
    citations.push({ kind: 'citation', event: { op: 'upsert', version: version++, key: String(i), entity: { ...{ id: i, cluster_id: i, volume, reporter: 'U.S.', page, type: 1 }, date_created: ts, date_modified: ts } } })
    const targets = [...new Set([rng.int(1, N), rng.int(1, N), rng.int(1, N)])].filter((x) => x !== i)
    cited.set(i, targets)
    const text = targets.map((x) => `See Case ${x}, ${cite(x).volume} U.S. ${cite(x).page} (1990).`).join(' ')
    opinions.push({ kind: 'opinion', event: { op: 'upsert', version: version++, key: String(i), entity: { id: i, cluster_id: i, type: '010combined', plain_text: text, date_created: ts, date_modified: ts } } })
  }
  const table = (name: string) => sql`${ident(rt.cfg.clickhouseDatabase)}.${ident(name)}`
  const one = async (q: ReturnType<typeof sql>) => Number(Object.values((await rt.db.query<Record<string, number>>(q))[0])[0])

  // Opinions first: nothing resolves yet, so all 100,000 wait on their citations.
  await def.sink(opinions)
  t.equal(await one(sql`SELECT count() FROM ${table('citation_state')} FINAL`), N, 'state for every opinion')
  const waits = [...cited.values()].reduce((n, x) => n + x.length, 0)
  t.equal(await one(sql`SELECT count() FROM ${table('citation_waiting')} FINAL`), waits, 'every citation waits')

  // Then 100,000 citations in one batch: every waiting opinion is asked for again.
  await def.sink(citations)
  t.equal(new Set(relinks.map((r) => r.opinion_id)).size, N, 'a relink for every waiting opinion')

  // The opinions, as the table sink holds them, and the 100,000 relinks in one batch.
  const cols = ['id', 'cluster_id', 'type', 'plain_text', 'date_created', 'date_modified', '_version', '_deleted']
  await rt.db.insertCompact('opinions', cols, opinions.map((o) => {
    const e = (o as { event: { version: number; entity: Record<string, unknown> } }).event
    return [e.entity.id, e.entity.cluster_id, e.entity.type, e.entity.plain_text, ts, ts, e.version, 0]
  }))
  const asked = [...new Map(relinks.map((r) => [r.opinion_id, r])).values()]
  relinks.length = 0
  await def.sink(asked.map((command) => ({ kind: 'relink', command })))
  t.equal(def.stats.deferred, 0, 'no relink had to wait for the table sink')
  t.equal(await one(sql`SELECT count() FROM ${table('citation_waiting')} FINAL`), 0, 'nobody waits any more')
  t.equal(await one(sql`SELECT sum(length(edge_ids)) FROM ${table('citation_state')} FINAL`), waits, 'one edge per citation')
  t.equal(relinks.length, 0, 'linked opinions ask for nothing more')
})
