/**
 * The in-memory matcher (the percolator) and the ClickHouse search agree: random small documents
 * from a tiny vocabulary, some replaced and some deleted, and random queries of the whole language;
 * for each query the matcher's id set, the SQL id set, the SQL count and the BM25 scores
 * (SQL against bm25.ts with the same statistics) are the same. Own database, dropped at the end.
 */
import t from 'tap'
import { loadConfig } from '../../core/config.js'
import { sql, ident, raw, type Sql } from '../../core/sql.js'
import { parseQuery } from '../../domain/search/parse.js'
import { and } from '../../domain/search/ast.js'
import { compileMatcher } from '../../domain/search/matcher.js'
import { analyzeDocument, type AnalyzedDoc, type SearchDocument } from '../../domain/search/document.js'
import { scoreDocument } from '../../domain/search/bm25.js'
import { searchSql, searchPageSql, countSql, statsSql, expansionSql, type SearchStats } from '../../domain/search/query-sql.js'
import { searchTableDdl, indexColumns, refreshSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { writeIndexRows } from '../../streams/search/indexer.js'
import { scratchDatabase } from '../helpers/scratch-db.js'
import type { Db } from '../../core/clickhouse.js'
import { mulberry32 } from '../kit/index.js'

const cfg = loadConfig()
const DB = `t_search_agree_${process.pid}_${Date.now().toString(36)}`
/**
 * Random queries over a random corpus, from a seed that differs per run (printed; LDS_AGREEMENT_SEED
 * repeats a run): every run checks a new 150 rather than the same 300 each time.
 */
const QUERIES = 150
const SEED = Number(process.env.LDS_AGREEMENT_SEED ?? Math.floor(Math.random() * 2 ** 32))
t.comment(`seed ${SEED} (LDS_AGREEMENT_SEED=${SEED} repeats this run)`)
const rnd = mulberry32(SEED)
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]
const WORDS = ['alpha', 'alphabet', 'alpine', 'beta', 'betamax', 'gamma', 'delta', 'deltoid', 'court', 'duty', 'care', 'müller', 'o', 'v']
const COURTS = ['ca1', 'ca2', 'scotus']
const words = (min: number, max: number) => Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(WORDS)).join(' ')

function randomDoc(id: number): SearchDocument {
  return {
    id,
    case_name: `${words(1, 2)} v. ${words(1, 2)}`,
    text: rnd() < 0.1 ? null : words(0, 14),
    judge: rnd() < 0.5 ? words(1, 2) : null,
    citation: rnd() < 0.5 ? [words(1, 3), words(1, 3)] : [],
    court_id: rnd() < 0.1 ? null : pick(COURTS),
    date_filed: rnd() < 0.15 ? null : `200${Math.floor(rnd() * 4)}-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`,
    cite_count: rnd() < 0.2 ? null : Math.floor(rnd() * 6),
    panel_ids: rnd() < 0.5 ? [] : [Math.floor(rnd() * 5), Math.floor(rnd() * 5)],
  }
}

function randomQuery(depth = 0): string {
  const r = rnd()
  if (depth < 3 && r < 0.3) {
    const op = pick([' ', ' AND ', ' OR ', ' || ', ' && '])
    return `(${randomQuery(depth + 1)}${op}${randomQuery(depth + 1)})`
  }
  if (depth < 3 && r < 0.4) return `${pick(['NOT ', '-', '!'])}${randomQuery(depth + 1)}`
  const leaf = rnd()
  if (leaf < 0.25) return pick(WORDS)
  if (leaf < 0.35) return `"${pick(WORDS)} ${pick(WORDS)}"`
  if (leaf < 0.42) return `"${pick(WORDS)} ${pick(WORDS)}"~${Math.floor(rnd() * 4)}`
  if (leaf < 0.47) return `"${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}"~${Math.floor(rnd() * 6)}`
  if (leaf < 0.55) return `${pick(['alp', 'alph', 'bet', 'delt', 'gam', 'cou', 'mul', 'xyz'])}*`
  if (leaf < 0.63) return `${pick(['caseName', 'judge', 'citation', 'text'])}:${pick(WORDS)}`
  if (leaf < 0.67) return `${pick(['caseName', 'citation'])}:"${pick(WORDS)} ${pick(WORDS)}"`
  if (leaf < 0.75) return `court_id:${pick([...COURTS, 'ca1*', 'sco*', 'CA2'])}`
  if (leaf < 0.83) return `dateFiled:${pick(['[', '{'])}${pick(['*', '2000', '2001-05', '2002-03-14'])} TO ${pick(['*', '2001', '2002-06', '2003-01-15'])}${pick([']', '}'])}`
  if (leaf < 0.9) return `citeCount:${pick(['[1 TO 3]', '{1 TO 4}', '>=2', '<3', '0'])}`
  if (leaf < 0.95) return `panel_ids:${Math.floor(rnd() * 5)}`
  return pick(['foo:bar', 'id:3', 'dateFiled:2001', 'citeCount:[* TO *]'])
}

/**
 * 120 random documents at version 1, then 30 replaced (version 2, inserted twice) and 15 deleted
 * (version 3), in separate inserts: returns the 105 current documents.
 */
async function indexRandomCorpus(db: Db, database: string, o: { granules?: number } = {}): Promise<AnalyzedDoc[]> {
  const ddl = searchTableDdl('o', { database })
  // small granules: the documents span several, so a read by key has marks to skip
  if (o.granules) ddl[0] = sql`${ddl[0]} SETTINGS index_granularity = ${raw(String(Math.trunc(o.granules)))}`
  for (const q of ddl) await db.command(q)
  const current = new Map<number, AnalyzedDoc>()
  const insert = async (docs: { doc: AnalyzedDoc; version: number; deleted?: boolean }[]) => {
    await writeIndexRows(db, 'o', toIndexRows('o', docs))
    await db.command(refreshSql('o', { database })) // visible to text queries now, not within the dictionary's lifetime
  }
  const v1 = Array.from({ length: 120 }, (_, i) => analyzeDocument('o', randomDoc(i + 1)))
  await insert(v1.map((doc) => ({ doc, version: 1 })))
  v1.forEach((d) => current.set(d.id, d))
  const v2 = Array.from({ length: 30 }, (_, i) => analyzeDocument('o', randomDoc(1 + ((i * 7) % 120))))
  await insert(v2.map((doc) => ({ doc, version: 2 })))
  await insert(v2.map((doc) => ({ doc, version: 2 }))) // delivered twice (at-least-once): must not count twice
  v2.forEach((d) => current.set(d.id, d))
  const gone = Array.from({ length: 15 }, (_, i) => current.get(3 + i * 8) as AnalyzedDoc)
  await insert(gone.map((doc) => ({ doc, version: 3, deleted: true })))
  gone.forEach((d) => current.delete(d.id))
  return [...current.values()]
}

t.test('the matcher and ClickHouse return the same documents, counts and scores', async (t) => {
  const db = await scratchDatabase(t, DB)
  const docs = await indexRandomCorpus(db, DB)
  t.equal(docs.length, 105)

  let nonEmpty = 0
  let queries = 0
  let totals = 0
  let fellBack = 0
  for (let i = 0; i < QUERIES; i++) {
    const q = randomQuery()
    const ast = parseQuery(q, 'o')
    queries++
    const m = compileMatcher(ast, 'o')
    const want = docs.filter(m).map((d) => d.id).sort((a, b) => a - b)
    const o = { database: DB, order: [{ field: 'id', dir: 'asc' as const }] }
    const got = (await db.query<{ id: number }>(searchSql(ast, 'o', o))).map((r) => Number(r.id))
    const [{ count }] = await db.query<{ count: number }>(countSql(ast, 'o', o))
    if (want.length) nonEmpty++
    if (!t.same(got, want, q) || !t.equal(Number(count), want.length, `${q}: count`)) break

    const stats = (await db.query<SearchStats>(statsSql(ast, 'o', { database: DB })))[0]
    const ranked = await db.query<{ id: number; score: number }>(searchSql(ast, 'o', { database: DB, stats, limit: 1000 }))
    // ordered by a document column: pages read from a sorted prefix (and again in full when it may
    // fall short) are the exact order's pages; version 2 was delivered twice, so rows repeat
    const byDate = { database: DB, order: [{ field: 'dateFiled', dir: 'desc' as const }] }
    const exact = (await db.query<{ id: number }>(searchSql(ast, 'o', byDate))).map((r) => Number(r.id))
    for (const [offset, limit] of [[0, 3], [2, 5], [want.length, 2]]) {
      const p = searchPageSql(ast, 'o', { ...byDate, limit, offset })
      let rows = await db.query<Record<string, unknown>>(p.sql)
      if (p.fallback?.needed(rows)) { rows = await db.query<Record<string, unknown>>(p.fallback.sql); fellBack++ }
      if (!t.same(rows.map((r) => Number(r.id)), exact.slice(offset, offset + limit), `${q}: dateFiled desc, ${limit} from ${offset}`)) break
    }
    // the page query counts the matches itself where it can (the API then runs no count query)
    const paged = searchPageSql(ast, 'o', { database: DB, stats, limit: 3, total: true })
    if (paged.total) {
      const rows = await db.query<{ total: number }>(paged.sql)
      if (!t.equal(rows.length ? Number(rows[0].total) : 0, want.length, `${q}: the page's total`)) break
      totals++
    }
    const byId = new Map(docs.map((d) => [d.id, d]))
    const expected = want.map((id) => ({ id, score: scoreDocument(ast, 'o', byId.get(id) as AnalyzedDoc, stats) }))
      .sort((a, b) => b.score - a.score || b.id - a.id)
    const close = ranked.length === expected.length && ranked.every((r, k) => Math.abs(r.score - expected[k].score) <= 1e-9 * Math.max(1, expected[k].score))
    if (!t.ok(close, `${q}: BM25 scores`, { got: ranked.slice(0, 5), want: expected.slice(0, 5) })) break
    // same order wherever scores are not tied within rounding
    const order = ranked.every((r, k) => r.id === expected[k].id || Math.abs(r.score - expected[k].score) <= 1e-9 * Math.max(1, r.score))
    if (!t.ok(order, `${q}: BM25 order`)) break
  }
  t.equal(queries, QUERIES)
  t.ok(totals > QUERIES / 2, `${totals} pages counted their matches`)
  t.comment(`${fellBack} date-ordered pages read again in full`)

  // prefix expansion lists what the postings hold (stale versions included), capped at max + 1
  const live = new Set(docs.flatMap((d) => [...d.text.case_name.positions.keys()].filter((x) => x.startsWith('alp'))))
  const [row] = await db.query<{ key: string; terms: string[] }>(expansionSql(parseQuery('caseName:alp*', 'o'), 'o', { database: DB }) as NonNullable<ReturnType<typeof expansionSql>>)
  t.equal(row.key, 'case_name:alp')
  t.ok([...live].every((x) => row.terms.includes(x)), `expansions ${row.terms.join(' ')} cover ${[...live].join(' ')}`)
  const [capped] = await db.query<{ terms: string[] }>(expansionSql(parseQuery('caseName:alp*', 'o'), 'o', { database: DB, maxExpansions: 1 }) as NonNullable<ReturnType<typeof expansionSql>>)
  t.equal(capped.terms.length, 2, 'one more than allowed marks a prefix as too broad')
  t.ok(nonEmpty > QUERIES / 4, `${nonEmpty} queries with hits`)
})

t.test('a layout-1 index (postings through a Null table, a version per posting) is migrated in place by the DDL', async (t) => {
  const name = `${DB}_m`
  const db = await scratchDatabase(t, name)
  const statements = searchTableDdl('o', { database: name })
  await db.command(statements[0]) // the documents table is the same in both layouts
  // layout 1 as it was created (the ingest table and its views stand for what a deployment has)
  await db.command(sql`CREATE TABLE search_o_postings (field LowCardinality(String), term String, ids Array(Int64), versions Array(UInt64),
    tfs Array(UInt32), dls Array(UInt32), poss Array(Array(UInt32))) ENGINE = MergeTree ORDER BY (field, term)`)
  await db.command(sql`CREATE TABLE search_o_ingest (id Int64) ENGINE = Null`)
  await db.command(sql`CREATE MATERIALIZED VIEW search_o_postings_mv TO search_o_postings AS SELECT 'text' AS field, '' AS term, [id] AS ids, [0] AS versions, [0] AS tfs, [0] AS dls, [[0]] AS poss FROM search_o_ingest`)
  const docs = [analyzeDocument('o', { id: 1, case_name: 'Smith v. Jones' }), analyzeDocument('o', { id: 2, case_name: 'Jones v. Doe' })]
  await writeIndexRows(db, 'o', { ...toIndexRows('o', docs.map((doc) => ({ doc, version: 1 }))), postings: [], postingRows: 0 })
  // a batch's row (one version) and a row mixing versions (document 2 at version 1, stale, and at 2)
  await db.insertCompact('search_o_postings', ['field', 'term', 'ids', 'versions', 'tfs', 'dls', 'poss'], [
    ['case_name', 'smith', [1], [1], [1], [3], [[0]]],
    ['case_name', 'jones', [1, 2, 2], [1, 1, 2], [1, 1, 1], [3, 3, 3], [[2], [0], [0]]],
  ])
  await db.insertCompact('search_o', indexColumns('o'), toIndexRows('o', [{ doc: docs[1], version: 2 }]).docs)
  for (const q of statements) await db.command(q)
  await db.command(refreshSql('o', { database: name }))

  const tables = (await db.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${name} ORDER BY name`)).map((r) => r.name)
  t.same(tables, ['search_o', 'search_o_latest', 'search_o_latest_src', 'search_o_live_v2', 'search_o_live_v2_src', 'search_o_postings_v2'], 'the ingest table, its views and the old postings are gone')
  const rows = await db.query(sql`SELECT field, term, version, ids, poss FROM search_o_postings_v2 ORDER BY field, term, version`)
  t.same(rows, [
    { field: 'case_name', term: 'jones', version: 1, ids: [1, 2], poss: [[2], [0]] },
    { field: 'case_name', term: 'jones', version: 2, ids: [2], poss: [[0]] },
    { field: 'case_name', term: 'smith', version: 1, ids: [1], poss: [[0]] },
  ], 'rows of one version copied, a mixed row regrouped per version')
  const found = async (q: string) => (await db.query<{ id: number }>(searchSql(parseQuery(q, 'o'), 'o', { database: name, order: [{ field: 'id', dir: 'asc' }] }))).map((r) => Number(r.id))
  t.same(await found('caseName:jones'), [1, 2])
  t.same(await found('caseName:smith'), [1])
  for (const q of statements) await db.command(q) // again: nothing changes
  t.equal((await db.query(sql`SELECT * FROM search_o_postings_v2`)).length, 3, 'the statements are idempotent')
})

t.test('a court and date filter read through the (court, date) projection gives what reading every document gives', async (t) => {
  const name = `${DB}_f`
  const db = await scratchDatabase(t, name)
  const docs = await indexRandomCorpus(db, name, { granules: 16 })
  // filter-first: the server may read the filter's documents from the projection by (court,
  // date), where that reads fewer marks (granules of 16 rows, so it has some to skip); scan: every
  // document row read, as before the projection
  const plans = { projection: { optimize_use_projections: 1 }, scan: { optimize_use_projections: 0 } }
  const texts = ['alpha', 'bet*', 'caseName:delta', '"duty care"', '(gamma OR beta)', 'alpha -beta']
  let compared = 0
  for (const q of texts) {
    for (const court of COURTS) {
      for (const [from, to] of [['2000-01-01', '2001-12-31'], ['1990-01-01', '2009-12-31']]) {
        const ast = parseQuery(q, 'o')
        const filters = parseQuery(`court_id:${court} dateFiled:[${from} TO ${to}]`, 'o')
        const m = compileMatcher(and([ast, filters]), 'o')
        const want = docs.filter(m).map((d) => d.id).sort((a, b) => a - b)
        const stats = (await db.query<SearchStats>(statsSql(ast, 'o', { database: name })))[0]
        const byId = new Map(docs.map((d) => [d.id, d]))
        const expected = want.map((id) => ({ id, score: scoreDocument(ast, 'o', byId.get(id) as AnalyzedDoc, stats) })).sort((a, b) => b.score - a.score || b.id - a.id)
        for (const [plan, settings] of Object.entries(plans)) {
          const label = `${q} with court ${court}, ${from} to ${to}, ${plan}`
          const o = { database: name, filters, order: [{ field: 'id', dir: 'asc' as const }] }
          const ask = <T>(what: string, q: Sql) => db.query<T>(q, { settings }).catch((err: Error) => { throw new Error(`${label}, ${what}: ${err.message}`) })
          const got = (await ask<{ id: number }>('ids', searchSql(ast, 'o', o))).map((r) => Number(r.id))
          const [{ count }] = await ask<{ count: number }>('count', countSql(ast, 'o', o))
          const ranked = await ask<{ id: number; score: number }>('by score', searchSql(ast, 'o', { database: name, filters, stats, limit: 1000 }))
          const close = ranked.length === expected.length && ranked.every((r, k) => Math.abs(r.score - expected[k].score) <= 1e-9 * Math.max(1, expected[k].score))
          if (!t.same(got, want, label) || !t.equal(Number(count), want.length, `${label}: count`) || !t.ok(close, `${label}: BM25 scores`, { got: ranked.slice(0, 5), want: expected.slice(0, 5) })) return
          compared++
        }
      }
    }
  }
  t.equal(compared, texts.length * COURTS.length * 2 * 2)
})
