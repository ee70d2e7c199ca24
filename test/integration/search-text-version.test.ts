/**
 * Text versions against real ClickHouse: a version whose text is unchanged writes no postings, yet
 * text queries still find the document, queries on its other fields see the new row, and the
 * compaction keeps the postings the current row points at; a later text change moves them.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { analyzeDocument, textHash } from '../../domain/search/document.js'
import { parseQuery } from '../../domain/search/parse.js'
import { searchSql } from '../../domain/search/query-sql.js'
import { searchTableDdl, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { compactSearchType } from '../../streams/search/compaction.js'
import { scratchDatabase } from '../helpers/scratch-db.js'

const cfg = loadConfig()

t.test('an unchanged text is not indexed again; its postings stay current through compactions', async (t) => {
  const db = await scratchDatabase(t, `t_search_textv_${process.pid}_${Date.now().toString(36)}`)
  const tables = { database: db.database }
  for (const q of searchTableDdl('o', tables)) await db.command(q)
  const doc = (text: string, citeCount: number) => ({ id: 1, case_name: 'Roe v. Doe', text, court_id: 'scotus', cite_count: citeCount })
  const index = async (d: ReturnType<typeof doc>, version: number, textVersion?: number) => {
    await writeIndexRows(db, 'o', toIndexRows('o', [{ doc: analyzeDocument('o', d), version, textVersion, textHash: textHash('o', d) }]))
    await db.command(refreshSql('o', tables))
  }
  const find = async (q: string) => (await db.query<{ id: number }>(searchSql(parseQuery(q, 'o'), 'o', { ...tables, order: [{ field: 'id', dir: 'asc' }] }))).map((r) => Number(r.id))
  const postingVersions = async (d: Db) => (await d.query<{ v: number }>(sql`SELECT DISTINCT version AS v FROM ${ident(d.database)}.search_o_postings_v2 ORDER BY v`)).map((r) => Number(r.v))

  await index(doc('the laches doctrine applies', 1), 1)
  await index(doc('the laches doctrine applies', 5), 2, 1) // a citation count changed, not the text
  t.same(await postingVersions(db), [1], 'version 2 wrote no postings')
  t.same(await find('laches'), [1], 'the text is found (postings of version 1, its text version)')
  t.same(await find('laches citeCount:[5 TO *]'), [1], 'with the citation count of version 2')
  t.same(await find('laches citeCount:[1 TO 4]'), [], 'not with the old one')
  t.same(await find('citeCount:[5 TO *]'), [1], 'and without text')

  await compactSearchType(db, 'o', { minShare: 0, wait: true })
  t.same(await postingVersions(db), [1], 'the compaction keeps the postings the current row points at')
  t.same(await find('laches'), [1])

  await index(doc('the estoppel doctrine applies', 6), 3) // the text changed
  t.same(await find('laches'), [], 'a text change replaces the text')
  t.same(await find('estoppel citeCount:[6 TO *]'), [1])
  await compactSearchType(db, 'o', { minShare: 0, wait: true })
  t.same(await postingVersions(db), [3], 'and the compaction then drops the old text')
})
