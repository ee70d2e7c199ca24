/**
 * Regression: an older layout's postings are moved into the current table by CREATE … AS SELECT,
 * and the older table is dropped afterwards. If the server is killed during the copy, the new
 * table exists with part of the index beside the older, still whole, one. Migrations used to see
 * every current table present and do nothing more: the index stayed partial for good, the older
 * table unused. Now such a table is dropped and the move made again.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { searchTableDdl } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { migrateSearchIndex } from '../../core/migrate.js'
import { scratchDatabase } from '../helpers/scratch-db.js'
import { prng } from '../fuzz/lib/generate.js'

const cfg = loadConfig()
const name = `t_search_move_${process.pid}_${Date.now().toString(36)}`

t.test('a move of the search index stopped during its copy is made again', async (t) => {
  const db = await scratchDatabase(t, name)
  const rnd = prng(11)
  const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`)
  const words = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]).join(' ')
  const docs = Array.from({ length: 60 }, (_, i) => analyzeDocument('o', { id: i + 1, case_name: `${words(2)} v. ${words(1)}`, text: words(150), court_id: 'scotus' }))
  // the reference: what the indexer writes, in tables `fresh*`
  for (const q of searchTableDdl('o', { database: name, table: 'fresh' })) await db.command(q)
  await writeIndexRows(db, 'o', toIndexRows('o', docs.map((doc) => ({ doc, version: 1 }))), { table: 'fresh' })
  // an older layout's table, whole, and the current one as a killed copy left it: half its rows
  await db.command(searchTableDdl('o', { database: name })[0])
  await db.command(sql`INSERT INTO search_o SELECT * FROM fresh`)
  await db.command(sql`CREATE TABLE search_o_postings_v3 AS fresh_postings_v2`)
  await db.command(sql`INSERT INTO search_o_postings_v3 SELECT * FROM fresh_postings_v2`)
  await db.command(sql`CREATE TABLE search_o_postings_v2 AS fresh_postings_v2`)
  await db.command(sql`INSERT INTO search_o_postings_v2 SELECT * FROM fresh_postings_v2 WHERE cityHash64(term) % 2 = 0`)
  const rowsOf = (table: string) => db.query(sql`SELECT field, term, version, ids, tfs, dls, poss FROM ${ident(name)}.${ident(table)} ORDER BY field, term, version, ids`)
  const whole = await rowsOf('fresh_postings_v2')
  t.ok((await rowsOf('search_o_postings_v2')).length < whole.length * 0.7, 'the current table holds part of the index')

  const tables = async () => new Set((await db.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${name}`)).map((r) => r.name))
  const said: string[] = []
  await migrateSearchIndex(db, name, await tables(), () => {}, (m) => said.push(m))

  t.same(await rowsOf('search_o_postings_v2'), whole, 'the current table holds the whole index')
  t.notOk((await tables()).has('search_o_postings_v3'), 'the older table is gone')
  t.match(said.join('\n'), /type o was being moved .* when it stopped: moving it again/, 'the user is told')
  said.length = 0
  await migrateSearchIndex(db, name, await tables(), () => {}, (m) => said.push(m))
  t.same(said, [], 'a second run has nothing to move')
  t.same(await rowsOf('search_o_postings_v2'), whole, 'and changes nothing')
})
