/**
 * statsSql with the corpus statistics cached by the caller (what the API and bench/search.ts ask)
 * reads the document frequencies as its own aggregate, not a scalar subquery: the same df as the
 * form that reads the corpus itself, pairs without postings absent, an empty map for a query
 * without scoring terms, and a batch delivered twice counted as statsSql always counted it. Own
 * database, dropped at the end.
 */
import t from 'tap'
import { parseQuery } from '../../domain/search/parse.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { statsSql, corpusStatsSql, type SearchStats, type CorpusStats } from '../../domain/search/query-sql.js'
import { searchTableDdl, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { scratchDatabase } from '../helpers/scratch-db.js'

const DB = `t_search_stats_${process.pid}_${Date.now().toString(36)}`

t.test('df with cached corpus statistics equals df read with the corpus', async (t) => {
  const db = await scratchDatabase(t, DB)
  for (const q of searchTableDdl('o', { database: DB })) await db.command(q)
  const docs = [
    { id: 1, case_name: 'Smith v. Jones', text: 'the court held the appeal moot', court_id: 'ca1' },
    { id: 2, case_name: 'Jones v. Doe', text: 'appeal dismissed by the court', court_id: 'ca2' },
    { id: 3, case_name: 'Doe v. Roe', text: 'affirmed', court_id: 'ca1' },
  ].map((d) => analyzeDocument('o', d))
  const rows = () => toIndexRows('o', docs.map((doc) => ({ doc, version: 1 })))
  await writeIndexRows(db, 'o', rows())
  await writeIndexRows(db, 'o', rows()) // delivered twice: df counts postings, as before
  await db.command(refreshSql('o', { database: DB }))
  const [c] = await db.query<CorpusStats>(corpusStatsSql('o', { database: DB }))
  const corpus: CorpusStats = { n: Number(c.n), avgdl: c.avgdl }

  for (const q of ['appeal', 'caseName:jones', 'court appeal nowhere', '"the court"', 'appeal OR caseName:doe', 'nowhere', 'court_id:ca1', 'appeal court_id:ca1']) {
    const ast = parseQuery(q, 'o')
    const [full] = await db.query<SearchStats>(statsSql(ast, 'o', { database: DB }))
    const [cached] = await db.query<SearchStats>(statsSql(ast, 'o', { database: DB, corpus }))
    const num = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Number(v)]))
    t.same(num(cached.df), num(full.df), `${q}: df`)
    t.equal(Number(cached.n), Number(full.n), `${q}: n`)
    t.same(num(cached.avgdl), num(full.avgdl), `${q}: avgdl`)
  }
  const [appeal] = await db.query<SearchStats>(statsSql(parseQuery('appeal nowhere', 'o'), 'o', { database: DB, corpus }))
  t.same(appeal.df, { 'text:appeal': 4 }, 'two documents, delivered twice; a pair without postings is absent')
  const [none] = await db.query<SearchStats>(statsSql(parseQuery('nowhere', 'o'), 'o', { database: DB, corpus }))
  t.same(none.df, {}, 'no postings: an empty map, one row')
})
