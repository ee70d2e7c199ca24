/**
 * The search index's compaction (streams/search/compaction.ts) against real ClickHouse: after
 * documents are replaced and deleted, it leaves exactly the postings an index of the current
 * documents alone holds (so document frequencies are exact again), answers stay the same, and a
 * version the live dictionary does not know yet loses nothing.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { parseQuery } from '../../domain/search/parse.js'
import { compileMatcher } from '../../domain/search/matcher.js'
import { searchSql, statsSql } from '../../domain/search/query-sql.js'
import { searchTableDdl, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import type { AnalyzedDoc } from '../../domain/search/index.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { compactSearchType, startSearchCompaction } from '../../streams/search/compaction.js'
import { createLogger } from '../../core/logger.js'
import { scratchDatabase } from '../helpers/scratch-db.js'
import { prng } from '../fuzz/lib/generate.js'

const cfg = loadConfig()
const name = `t_search_compact_${process.pid}_${Date.now().toString(36)}`

/** Every posting as one sorted line: field, term, id, tf, dl, positions. */
async function flatPostings(db: Db, table: string): Promise<string[]> {
  const rows = await db.query<{ p: string }>(sql`SELECT concat(field, '|', term, '|', toString(id), '|', toString(tf), '|', toString(dl), '|', toString(pos)) AS p
    FROM ${ident(db.database)}.${ident(table)} ARRAY JOIN ids AS id, tfs AS tf, dls AS dl, poss AS pos ORDER BY p`)
  return rows.map((r) => r.p)
}

t.test('compaction leaves the postings of the current documents only, and the same answers', async (t) => {
  const db = await scratchDatabase(t, name)
  const rnd = prng(11)
  const vocabulary = Array.from({ length: 30 }, (_, i) => `w${i.toString(36)}q`)
  const words = (n: number, from = vocabulary) => Array.from({ length: n }, () => from[Math.floor(rnd() * from.length)])
  const doc = (id: number, extra: string[] = []): AnalyzedDoc =>
    analyzeDocument('o', { id, case_name: `${words(2).join(' ')} v. ${words(1)[0]}`, text: [...words(60), ...extra].join(' '), court_id: 'scotus' })
  const tables = { database: name }
  for (const q of searchTableDdl('o', tables)) await db.command(q)
  for (const q of searchTableDdl('o', { ...tables, table: 'fresh' })) await db.command(q)

  // version 1: 40 documents; version 2 replaces 1–20 (their old texts alone hold "oldword");
  // version 3 deletes 21–25
  const v1 = Array.from({ length: 40 }, (_, i) => doc(i + 1, i < 20 ? ['oldword'] : []))
  const v2 = Array.from({ length: 20 }, (_, i) => doc(i + 1, ['newword']))
  await writeIndexRows(db, 'o', toIndexRows('o', v1.map((d) => ({ doc: d, version: 1 }))))
  await writeIndexRows(db, 'o', toIndexRows('o', v2.map((d) => ({ doc: d, version: 2 }))))
  await writeIndexRows(db, 'o', toIndexRows('o', [21, 22, 23, 24, 25].map((id) => ({ doc: analyzeDocument('o', { id }), version: 3, deleted: true }))))
  await db.command(refreshSql('o', tables))
  // the reference: an index of the current documents alone
  const current = [...v2, ...v1.slice(25)]
  await writeIndexRows(db, 'o', toIndexRows('o', current.map((d) => ({ doc: d, version: d.id <= 20 ? 2 : 1 }))), { table: 'fresh' })
  await db.command(refreshSql('o', { ...tables, table: 'fresh' }))

  const queries = ['oldword', 'newword', 'w1q', '"w2q w3q"', 'caseName:w4q', 'w5q OR w6q', 'w7q -w8q']
  const answers = async (table?: string) => {
    const out: Record<string, number[]> = {}
    for (const q of queries) {
      out[q] = (await db.query<{ id: number }>(searchSql(parseQuery(q, 'o'), 'o', { ...tables, table, order: [{ field: 'id', dir: 'asc' }] }))).map((r) => Number(r.id))
    }
    return out
  }
  const stats = async (q: string, table?: string) => (await db.query<{ df: Record<string, number> }>(statsSql(parseQuery(q, 'o'), 'o', { ...tables, table })))[0].df
  const before = await answers()
  t.same(before, await answers('fresh'), 'before: the same answers as the reference (queries skip stale postings)')
  t.same(before, Object.fromEntries(queries.map((q) => [q, current.filter(compileMatcher(parseQuery(q, 'o'), 'o')).map((d) => d.id).sort((a, b) => a - b)])), 'and as the matcher')
  t.not(JSON.stringify(await stats('w1q w9q')), JSON.stringify(await stats('w1q w9q', 'fresh')), 'before: document frequencies count replaced documents')

  const idle = await compactSearchType(db, 'o', { minShare: 0.99, wait: true })
  t.ok(idle.stale > 0 && !idle.compacted, `below the share asked for, nothing is compacted (${idle.stale} of ${idle.postings} stale)`)
  const check = await compactSearchType(db, 'o', { minShare: 0.2, wait: true })
  t.ok(check.compacted, `compacted: ${check.stale} of ${check.postings} sampled postings were stale`)

  t.same(await flatPostings(db, 'search_o_postings_v2'), await flatPostings(db, 'fresh_postings_v2'), 'after: exactly the postings of the current documents')
  const empty = await db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(name)}.search_o_postings_v2 WHERE empty(ids)`)
  t.equal(Number(empty[0].n), 0, 'no row left empty')
  t.same(await answers(), before, 'after: the same answers')
  for (const q of ['w1q w9q', 'oldword newword', '"w2q w3q"']) t.same(await stats(q), await stats(q, 'fresh'), `after: exact document frequencies for ${q}`)
  const again = await compactSearchType(db, 'o', { minShare: 0, wait: true })
  t.same([again.stale, again.compacted], [0, false], 'a second run finds nothing stale')
})

t.test('a version indexed but not yet current (the live dictionary not reloaded) loses nothing', async (t) => {
  const db = await scratchDatabase(t, `${name}_b`)
  const tables = { database: db.database }
  for (const q of searchTableDdl('o', tables)) await db.command(q)
  const text = (w: string) => analyzeDocument('o', { id: 1, case_name: 'Roe v. Doe', text: `the ${w} doctrine applies`, court_id: 'scotus' })
  await writeIndexRows(db, 'o', toIndexRows('o', [{ doc: text('laches'), version: 1 }]))
  await writeIndexRows(db, 'o', toIndexRows('o', [{ doc: text('estoppel'), version: 2 }]))
  await db.command(refreshSql('o', tables))
  // version 3 written by the indexer, whose reload of the live dictionary has not run yet
  await writeIndexRows(db, 'o', toIndexRows('o', [{ doc: text('waiver'), version: 3 }]))
  const find = async (q: string) => (await db.query<{ id: number }>(searchSql(parseQuery(q, 'o'), 'o', { ...tables, order: [{ field: 'id', dir: 'asc' }] }))).map((r) => Number(r.id))
  await compactSearchType(db, 'o', { minShare: 0, wait: true })
  t.same(await find('estoppel'), [1], 'the version queries read (2) is still found')
  t.same(await find('laches'), [], 'the replaced version 1 stays unread')
  const versions = await db.query<{ version: number }>(sql`SELECT DISTINCT version FROM ${ident(db.database)}.search_o_postings_v2 ORDER BY version`)
  t.same(versions.map((r) => Number(r.version)), [2, 3], 'version 1 is dropped; 2 (current) and 3 (next) are kept')
  await db.command(refreshSql('o', tables))
  await compactSearchType(db, 'o', { minShare: 0, wait: true })
  t.same(await find('waiver'), [1], 'once current, version 3 is found')
  const left = await db.query<{ version: number }>(sql`SELECT DISTINCT version FROM ${ident(db.database)}.search_o_postings_v2 ORDER BY version`)
  t.same(left.map((r) => Number(r.version)), [3], 'and version 2 goes at the next compaction')
})

t.test('the search-index role compacts by itself once the stale share reaches its setting', async (t) => {
  const db = await scratchDatabase(t, `${name}_c`)
  const tables = { database: db.database }
  for (const q of searchTableDdl('o', tables)) await db.command(q)
  const docs = (version: number) => Array.from({ length: 10 }, (_, i) => ({ doc: analyzeDocument('o', { id: i + 1, case_name: `Party ${i} v. State`, text: `version ${version} of opinion ${i}`, court_id: 'scotus' }), version }))
  await writeIndexRows(db, 'o', toIndexRows('o', docs(1)))
  await writeIndexRows(db, 'o', toIndexRows('o', docs(2)))
  await db.command(refreshSql('o', tables))
  const versions = async () => (await db.query<{ version: number }>(sql`SELECT DISTINCT version FROM ${ident(db.database)}.search_o_postings_v2 ORDER BY version`)).map((r) => Number(r.version))
  t.same(await versions(), [1, 2], 'both versions indexed')
  const job = startSearchCompaction({ cfg: { ...cfg, searchCompaction: { everyMs: 100, staleShare: 0.4 } }, db, log: createLogger({ logLevel: 'silent' }) })
  t.teardown(() => job.stop())
  const until = Date.now() + 20_000
  while (Date.now() < until && (await versions()).length > 1) await new Promise((r) => setTimeout(r, 100))
  t.same(await versions(), [2], 'the replaced version is compacted away without being asked')
})
