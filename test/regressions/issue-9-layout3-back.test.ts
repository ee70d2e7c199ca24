/**
 * Regression (issue 9): layout 3 (602d8ca: a gram for every adjacent pair) was current for an hour
 * and then reverted, so a database whose `lds migrate` or `npm start` ran meanwhile holds
 * `search_o_postings_v3` and no layout-2 table. Without a way back, the layout-2 statements would
 * create an empty postings table beside it: every text query of that database would find nothing.
 * Here the DDL moves such an index back in place: token rows and grams with a common word kept, the
 * grams of two uncommon words (layout 2 never reads them) left out, the layout-3 table dropped.
 * (This replaces issue-9-layout3-migration-memory.test.ts, which tested the way there.)
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { parseQuery } from '../../domain/search/parse.js'
import { compileMatcher } from '../../domain/search/matcher.js'
import { searchSql } from '../../domain/search/query-sql.js'
import { COMMON_WORDS } from '../../domain/search/common-grams.js'
import { searchTableDdl, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { scratchDatabase } from '../helpers/scratch-db.js'
import { prng } from '../fuzz/lib/generate.js'

const cfg = loadConfig()
const name = `t_issue9_back_${process.pid}_${Date.now().toString(36)}`

t.test('a layout-3 index is moved back to layout 2 by the DDL', async (t) => {
  const db = await scratchDatabase(t, name)
  const rnd = prng(7)
  const vocabulary = [...Array.from({ length: 40 }, (_, i) => `w${i.toString(36)}x`), ...[...COMMON_WORDS].slice(0, 6)]
  const words = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(rnd() * vocabulary.length)])
  const docs = Array.from({ length: 40 }, (_, i) => analyzeDocument('o', { id: i + 1, case_name: `${words(2).join(' ')} v. ${words(1)[0]}`, text: words(200).join(' '), court_id: 'scotus' }))
  // the reference: what the layout-2 indexer writes, in tables `fresh*`
  for (const q of searchTableDdl('o', { database: name, table: 'fresh' })) await db.command(q)
  await writeIndexRows(db, 'o', toIndexRows('o', docs.map((doc) => ({ doc, version: 1 }))), { table: 'fresh' })
  // the layout-3 database: the same documents and postings, plus the grams of uncommon pairs
  const statements = searchTableDdl('o', { database: name })
  await db.command(statements[0])
  await db.command(sql`INSERT INTO search_o SELECT * FROM fresh`)
  await db.command(sql`CREATE TABLE search_o_postings_v3 AS fresh_postings_v2`)
  await db.command(sql`INSERT INTO search_o_postings_v3 SELECT * FROM fresh_postings_v2`)
  const uncommon = new Map<string, { ids: number[]; poss: number[][] }>()
  for (const d of docs) {
    const toks = d.text.text.tokens
    toks.forEach((x, i) => {
      const y = toks[i + 1]
      if (y === undefined || COMMON_WORDS.has(x) || COMMON_WORDS.has(y)) return
      const e = uncommon.get(`${x} ${y}`) ?? { ids: [], poss: [] }
      if (e.ids.at(-1) !== d.id) { e.ids.push(d.id); e.poss.push([]) }
      e.poss.at(-1)?.push(i)
      uncommon.set(`${x} ${y}`, e)
    })
  }
  const dl = (id: number) => docs[id - 1].text.text.length
  await db.insertCompact('search_o_postings_v3', ['field', 'term', 'version', 'ids', 'tfs', 'dls', 'poss'],
    [...uncommon].map(([term, e]) => ['text~2', term, 1, e.ids, e.poss.map((p) => p.length), e.ids.map(dl), e.poss]))
  t.ok(uncommon.size > 100, `${uncommon.size} grams of uncommon pairs in the layout-3 table`)

  for (const q of statements) await db.command(q)
  await db.command(refreshSql('o', { database: name }))

  const tables = (await db.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${name} AND NOT startsWith(name, 'fresh') ORDER BY name`)).map((r) => r.name)
  t.same(tables, ['search_o', 'search_o_latest', 'search_o_latest_src', 'search_o_live_v2', 'search_o_live_v2_src', 'search_o_postings_v2'], 'the layout-3 table is gone')
  const rowsOf = (table: string) => db.query(sql`SELECT field, term, version, ids, tfs, dls, poss FROM ${ident(name)}.${ident(table)} ORDER BY field, term, version, ids`)
  t.same(await rowsOf('search_o_postings_v2'), await rowsOf('fresh_postings_v2'), 'the postings are those the layout-2 indexer writes')
  for (const q of ['"w1x w2x"', 'w3x', '"the w4x"', 'caseName:"w5x w6x"', `"${docs[0].text.text.tokens.slice(5, 8).join(' ')}"`]) {
    const ast = parseQuery(q, 'o')
    const want = docs.filter(compileMatcher(ast, 'o')).map((d) => d.id)
    const got = (await db.query<{ id: number }>(searchSql(ast, 'o', { database: name, order: [{ field: 'id', dir: 'asc' }] }))).map((r) => Number(r.id))
    t.same(got, want, q)
  }
  for (const q of statements) await db.command(q) // again: nothing changes
  t.same(await rowsOf('search_o_postings_v2'), await rowsOf('fresh_postings_v2'), 'the statements are idempotent')
})
