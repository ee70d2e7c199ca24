/**
 * Regression (issue 9, layout 3): moving a layout-2 index to layout 3 makes the grams of every
 * adjacent pair of uncommon words from the token postings. The first version paired a document's
 * tokens with a lambda that indexed the token array, which ClickHouse runs on a copy of the array
 * per element: memory in the square of a document's length. On the 10,000-opinion sample, every
 * `lds` command and `npm start` of a layout-2 database stopped on ClickHouse's memory limit. Here
 * one opinion of 30,000 words is migrated, and its grams are those a layout-3 indexer writes.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { searchTableDdl, COMMON_WORDS, toIndexRows } from '../../domain/search/to-sql.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { scratchDatabase } from '../helpers/scratch-db.js'

const cfg = loadConfig()
const name = `t_issue9_mig_${process.pid}_${Date.now().toString(36)}`

t.test('a layout-2 index holding a 30,000-word opinion is migrated to layout 3', async (t) => {
  const db = await scratchDatabase(t, name)
  let seed = 7
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
  // 2,000 made-up words and some common ones, so that both kinds of pairs occur
  const vocabulary = [...Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}x`), ...[...COMMON_WORDS].slice(0, 10)]
  const text = Array.from({ length: 30_000 }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]).join(' ')
  const doc = analyzeDocument('o', { id: 1, case_name: 'Long v. Opinion', text, judge: null, citation: [], court_id: 'scotus', date_filed: '2001-02-03', cite_count: 0, panel_ids: [] })
  for (const q of searchTableDdl('o', { database: name, table: 'fresh' })) await db.command(q)
  await writeIndexRows(db, cfg.clickhouseUrl, 'o', toIndexRows('o', [{ doc, version: 1 }]), { table: 'fresh' })
  // the same index as layout 2 had it: grams only where a word is common
  const statements = searchTableDdl('o', { database: name })
  await db.command(statements[0])
  await db.command(sql`CREATE TABLE search_o_postings_v2 AS fresh_postings_v3`)
  await db.command(sql`INSERT INTO search_o_postings_v2 SELECT * FROM fresh_postings_v3 WHERE NOT endsWith(field, '~2') OR hasAny(splitByChar(' ', term), ${[...COMMON_WORDS]})`)
  await db.command(sql`INSERT INTO search_o SELECT * FROM fresh`)

  for (const q of statements) await db.command(q)

  const rowsOf = (table: string) => db.query(sql`SELECT field, term, version, ids, tfs, dls, poss FROM ${ident(name)}.${ident(table)} ORDER BY field, term, version, ids`)
  const [migrated, fresh] = await Promise.all([rowsOf('search_o_postings_v3'), rowsOf('fresh_postings_v3')])
  t.ok(fresh.length > 10_000, `${fresh.length} postings rows, most of them grams`)
  t.same(migrated, fresh, 'the migrated postings are those a layout-3 indexer writes')
})
