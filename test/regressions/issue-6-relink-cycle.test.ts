/**
 * Issue 6, found by the fresh-clone check after the relink fix: an opinion only relinked (asked for
 * again, not arrived) made the processor relink every opinion citing its cluster, whose relinks did
 * the same in turn; around a cycle of citations (A cites B, B cites A) this never ended, and on the
 * 10k sample the command topic grew without bound. Now only an opinion that arrives from the
 * opinions topic (a replay after a crash included) has its cluster's citers relinked.
 * Opinions 1 → 2 → 3 → 1 (each in its own cluster) are fed to the processor; the relinks it asks
 * for are fed back, one per batch, until none is left, which must happen within a few rounds, with
 * every edge made.
 */
import t from 'tap'
import { sql, ident } from '../../core/sql.js'
import { citationNetworkUnderTest } from '../helpers/citation-network.js'
import type { NetEvent } from '../../streams/citation-network.js'

const ts = '2024-01-01T00:00:00+00:00'
const cites = { 1: 2, 2: 3, 3: 1 } as const

t.test('relinks around a cycle of citations come to an end', async (t) => {
  const { rt, def, relinks } = await citationNetworkUnderTest(t)
  let version = 1
  const citation = (i: number): NetEvent => ({ kind: 'citation', event: { op: 'upsert', version: version++, key: String(i), entity: { id: i, cluster_id: i, volume: 500 + i, reporter: 'U.S.', page: String(i), type: 1, date_created: ts, date_modified: ts } } })
  const opinion = (i: 1 | 2 | 3) => ({ id: i, cluster_id: i, type: '010combined', plain_text: `As held in Case ${cites[i]}, ${500 + cites[i]} U.S. ${cites[i]} (1990).`, date_created: ts, date_modified: ts })
  const ids = [1, 2, 3] as const
  const opinionEvents: NetEvent[] = ids.map((i) => ({ kind: 'opinion', event: { op: 'upsert', version: version++, key: String(i), entity: opinion(i) } }))
  // The opinions as the table sink holds them, at the same versions (relinks read them from there).
  await rt.db.insertCompact('opinions', ['id', 'cluster_id', 'type', 'plain_text', 'date_created', 'date_modified', '_version', '_deleted'],
    ids.map((i, n) => { const o = opinion(i); return [o.id, o.cluster_id, o.type, o.plain_text, ts, ts, (opinionEvents[n] as { event: { version: number } }).event.version, 0] }))

  // Opinions first (nothing resolves: no citations yet), then the citations, then the relinks asked for, round after round.
  await def.sink(opinionEvents)
  await def.sink(ids.map(citation))
  let rounds = 0
  while (relinks.length && rounds < 10) {
    const asked = [...new Map(relinks.map((r) => [r.opinion_id, r])).values()]
    relinks.length = 0
    // One command per batch, as commands on different partitions or fetches come.
    for (const command of asked) await def.sink([{ kind: 'relink', command }])
    rounds++
  }
  t.ok(rounds <= 3, `no relink is asked for after ${rounds} round(s) (at most 3)`)
  t.same(relinks, [], 'nothing left to relink')
  const edges = await rt.db.query<{ citing: number; cited: number }>(sql`
    SELECT opinion_id AS citing, arrayJoin(cited_cluster_ids) AS cited FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('citation_state')} FINAL ORDER BY citing`)
  t.same(edges.map((e) => [Number(e.citing), Number(e.cited)]), [[1, 2], [2, 3], [3, 1]], 'every citation of the cycle linked')
})
