/**
 * The search engine's statistics round trip: a query whose document frequencies were read lately
 * runs its page alone (one round trip), scored with the same statistics; a query with a pair not
 * seen yet reads them. Against a recording stand-in for ClickHouse: what is asked, not its speed.
 */
import t from 'tap'
import { compile, type Sql } from '../../../core/sql.js'
import type { Db } from '../../../core/clickhouse.js'
import { createSearchEngine } from '../../../api/search/engine.js'
import { searchRequest } from '../../../domain/search/request.js'

function recordingDb(): { db: Db; asked: { kind: string; params: Record<string, unknown> }[] } {
  const asked: { kind: string; params: Record<string, unknown> }[] = []
  const db = {
    database: 'lds',
    async query(q: Sql) {
      const { query, query_params } = compile(q)
      const kind = /AS df\b/.test(query) ? 'stats' : /AS avgdl FROM/.test(query) ? 'corpus' : 'page'
      asked.push({ kind, params: query_params })
      if (kind === 'corpus') return [{ n: 10, avgdl: { case_name: 3, text: 50 } }]
      if (kind === 'stats') return [{ n: 10, avgdl: { case_name: 3, text: 50 }, df: { 'text:miranda': 2 } }]
      return [{ id: 1, score: 1.5, total: 1 }]
    },
  } as unknown as Db
  return { db, asked }
}

t.test('document frequencies read lately are reused: the page is the only round trip', async (t) => {
  const { db, asked } = recordingDb()
  const engine = createSearchEngine(db)
  const page = { limit: 20, offset: 0 }
  await engine.page(searchRequest(new URLSearchParams('q=miranda')), page)
  t.same(asked.map((a) => a.kind), ['corpus', 'stats', 'page'], 'the first query reads the corpus and its frequencies')
  const first = asked[2].params

  asked.length = 0
  const again = searchRequest(new URLSearchParams('q=miranda'))
  await engine.page(again, page)
  t.same(asked.map((a) => a.kind), ['page'], 'the same term again: one round trip')
  t.same(asked[0].params, first, 'scored with the same statistics (the same weights bound)')
  t.same((await engine.stats(again))?.df, { 'text:miranda': 2 }, 'pairs without postings stay absent, as statsSql answers')

  asked.length = 0
  await engine.page(searchRequest(new URLSearchParams('q=miranda warnings')), page)
  t.same(asked.map((a) => a.kind), ['stats', 'page'], 'a pair not seen yet: its frequencies are read')
})
