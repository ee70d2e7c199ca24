/**
 * Issue 9, the intermittent miss of test/integration/search-api.test.ts ('(brown OR smith) AND
 * court_id:ca1' found nothing for Smith v. Jones, which was indexed): the indexer had indexed the
 * cluster again (same content, a new version) and not yet reloaded the live-version dictionary,
 * which still named the old version; a merge of the documents table (ReplacingMergeTree) had
 * already dropped the old row. Text queries keep the postings of the dictionary's version (the
 * postings table never drops a row), but a query that reads the document's row (a court filter,
 * a date order, OR with a column) asked for the row at exactly that version, and found none.
 * Caught in a run: docs table {version: …2622000, court_id: ca1}, dictionary live …0196001.
 * Here the order is forced: version 1 indexed and current, version 2 inserted, the table merged
 * (OPTIMIZE … FINAL does what a background merge may do at any moment), the dictionary not reloaded.
 * Every query shape that reads document rows still finds the document, once, before and after the
 * reload; a deletion in the same window hides it at once from those shapes rather than matching
 * through the deletion row. Own database, dropped at the end.
 */
import t, { type Test } from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import { parseQuery } from '../../domain/search/parse.js'
import { analyzeDocument } from '../../domain/search/document.js'
import { searchSql, countSql, statsSql, type SearchStats } from '../../domain/search/query-sql.js'
import { searchTableDdl, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { scratchDatabase } from '../helpers/scratch-db.js'

const cfg = loadConfig()
const DB = `t_issue9_${process.pid}_${Date.now().toString(36)}`

t.test('a document indexed again stays findable by its columns while its new version is not current yet', async (t) => {
  const db = await scratchDatabase(t, DB)
  for (const q of searchTableDdl('o', { database: DB })) await db.command(q)

  const smith = analyzeDocument('o', { id: 2, case_name: 'Smith v. Jones', court_id: 'ca1', date_filed: '1990-03-01', text: 'Counsel relied on Miranda.' })
  const brown = analyzeDocument('o', { id: 3, case_name: 'Brown v. Board', court_id: 'scotus', date_filed: '1954-05-17', text: 'Segregation.' })
  const index = (docs: Parameters<typeof toIndexRows>[1]) => writeIndexRows(db, 'o', toIndexRows('o', docs))
  await index([{ doc: smith, version: 1 }, { doc: brown, version: 1 }])
  await db.command(refreshSql('o', { database: DB }))

  const shapes: [string, Record<string, unknown>, number[]][] = [
    ['(brown OR smith) AND court_id:ca1', {}, [2]], // text AND columns: the documents as a semi-join
    ['(brown OR smith) AND court_id:ca1', { order: [{ field: 'dateFiled', dir: 'desc' }] }, [2]], // ordered by a column
    ['smith OR court_id:zz', {}, [2]], // text OR a column: the documents joined
    ['miranda AND NOT court_id:scotus', {}, [2]],
    ['smith AND dateFiled:[1980-01-01 TO 2000-12-31]', { order: [{ field: 'id', dir: 'asc' }] }, [2]],
  ]
  const check = async (t: Test, when: string, expect: (want: number[]) => number[] = (w) => w) => {
    for (const [q, o, want] of shapes) {
      const ast = parseQuery(q, 'o')
      const [stats] = await db.query<SearchStats>(statsSql(ast, 'o', { database: DB }))
      const got = (await db.query<{ id: number }>(searchSql(ast, 'o', { database: DB, stats, ...o }))).map((r) => Number(r.id))
      const [{ count }] = await db.query<{ count: number }>(countSql(ast, 'o', { database: DB, ...o }))
      t.same(got, expect(want), `${when}: ${q} ${JSON.stringify(o)}`)
      t.equal(Number(count), expect(want).length, `${when}: ${q}: count`)
    }
  }
  await check(t, 'version 1 current')

  // version 2, same content (a child entity or a replay asked for it): inserted, not current yet
  await index([{ doc: smith, version: 2 }])
  await check(t, 'version 2 inserted, not merged') // both rows there: still one result
  await db.command(sql`OPTIMIZE TABLE ${ident(DB)}.search_o FINAL`)
  const rows = await db.query<{ version: number }>(sql`SELECT version FROM ${ident(DB)}.search_o WHERE id = 2`)
  t.same(rows.map((r) => Number(r.version)), [2], 'the merge dropped the row of the current version')
  await check(t, 'version 2 merged, the dictionary still at 1')
  await db.command(refreshSql('o', { database: DB }))
  await check(t, 'version 2 current')

  // a deletion in the same window: the rows that read the document's columns no longer match
  await index([{ doc: analyzeDocument('o', { id: 2 }), version: 3, deleted: true }])
  await db.command(sql`OPTIMIZE TABLE ${ident(DB)}.search_o FINAL`)
  await check(t, 'deleted, the dictionary still at 2', () => [])
  await db.command(refreshSql('o', { database: DB }))
  await check(t, 'deleted and reloaded', () => [])
})
