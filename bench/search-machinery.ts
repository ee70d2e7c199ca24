/**
 * Search machinery: which ClickHouse layout serves the query language with BM25 ranking.
 *
 *   npx tsx bench/search-machinery.ts [--docs 200000] [--queries 40] [--only A,B,C,P] [--final 0] [--keep]
 *
 * Generates N synthetic opinion-like documents (a 50,000-word vocabulary drawn with a Zipf law,
 * 150-450 words of text each, a case name from 5,000 surnames, 40 courts, dates 1950-2025),
 * batch by batch (20,000), the same documents for every layout; measures the analyzer's chars/s
 * on the first 100,000; loads them into the scratch database `lds_searchbench` under each
 * candidate layout and prints per layout the load rate (generation excluded) and p50/p95
 * latencies of: a single term, a 2-term AND (terms of rank 50-5,000), a phrase (2-3 consecutive
 * tokens of a generated document, so frequent words are common), a field query (caseName:x),
 * a filtered query (term + court + 5-year date range); each as "count + top 20 by date" and "top
 * 20 by BM25" (statistics query included). The database is dropped at the end (--keep keeps it).
 * The machine's load average is printed: the numbers mean little when other work shares the CPUs.
 *
 * Layouts:
 *   A  text index: one row per document, text fields as Array(String) of analyzed tokens with a
 *      `text(tokenizer = array)` index; has()/hasAllTokens() answered from the index, phrases by
 *      hasSubstr() on candidates, tf = countEqual() for BM25.
 *   B  tokenbf_v1: the same tokens as one space-joined String, a tokenbf_v1 skip index,
 *      hasToken(), phrases by position(), tf by countSubstrings().
 *   C  postings rows: (field, term, doc, tf, dl, positions) ordered by (field, term, doc), one row
 *      per posting, built by materialized views that group each document's tokens.
 *   D  the same postings rows computed by the indexer (JS) and exploded by ARRAY JOIN.
 *   P  production (schemas/internal/search-layout.ts, streams/search/index-rows.ts,
 *      domain/search/query-sql.ts): postings grouped per batch into one row per
 *      (field, term, version) by the indexer (with common grams) and inserted as a Native block,
 *      current versions from a dictionary; queries compiled from the query language
 *      (type o: all 13 default text fields, not just 2 as A-D). bench/search.ts measures it at
 *      1M documents against PostgreSQL.
 */
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { loadConfig } from '../core/config.js'
import { createDb, type Db } from '../core/clickhouse.js'
import { sql, ident, join, raw, param, type Sql } from '../core/sql.js'
import { analyzeDocument, type SearchDocument } from '../domain/search/document.js'
import { tokens } from '../domain/search/analyzer.js'
import { toIndexRows } from '../streams/search/index-rows.js'
import { searchTableDdl, refreshSql } from '../schemas/internal/search-layout.js'
import { searchTables } from '../domain/search/tables.js'
import { searchSql, countSql, statsSql, type SearchStats } from '../domain/search/query-sql.js'
import { writeIndexRows } from '../streams/search/indexer.js'
import { parseQuery } from '../domain/search/parse.js'
import { mulberry32 } from '../test/kit/random.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/search-machinery.ts', {
  docs: { type: 'number', default: 200_000, help: 'synthetic documents' },
  queries: { type: 'number', default: 40, help: 'queries per kind' },
  only: { type: 'string', default: 'A,B,C,P', help: 'layouts to run' },
  final: { type: 'string', default: '1', help: '0 reads without FINAL' },
  keep: { type: 'boolean', help: 'keep the database at the end' },
})
const N = flags.docs
const QUERIES = flags.queries
const ONLY = new Set(flags.only.split(','))
const FINAL = flags.final !== '0'
const KEEP = flags.keep
const DB = 'lds_searchbench'
const BATCH = 20_000

// ---------------------------------------------------------------- synthetic corpus

/** One seeded stream for the whole corpus (the same documents on every run). */
let rnd = mulberry32(0x9e3779b9)
const SYL = 'ba be bi bo bu da de di do du fa fe fi ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi za ze zo ex ant ion ment'.split(' ')
function vocabulary(n: number, minSyl: number): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  while (out.length < n) {
    let w = ''
    const k = minSyl + Math.floor(rnd() * 3)
    for (let i = 0; i < k; i++) w += SYL[Math.floor(rnd() * SYL.length)]
    if (!seen.has(w)) { seen.add(w); out.push(w) }
  }
  return out
}
function zipf(n: number, s: number): () => number {
  const cdf = new Float64Array(n)
  let acc = 0
  for (let r = 0; r < n; r++) { acc += 1 / Math.pow(r + 1, s); cdf[r] = acc }
  for (let r = 0; r < n; r++) cdf[r] /= acc
  return () => {
    const u = rnd()
    let lo = 0
    let hi = n - 1
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cdf[mid] < u) lo = mid + 1; else hi = mid }
    return lo
  }
}
const WORDS = vocabulary(50_000, 1)
const NAMES = vocabulary(5_000, 2).map((w) => w[0].toUpperCase() + w.slice(1))
const COURTS = Array.from({ length: 40 }, (_, i) => `c${i}${SYL[i]}`)
const word = zipf(WORDS.length, 1.0)
const name = zipf(NAMES.length, 0.8)
const court = zipf(COURTS.length, 0.7)
const DAY0 = Date.UTC(1950, 0, 1)
const DAYS = Math.floor((Date.UTC(2025, 11, 31) - DAY0) / 86_400_000)
const dayString = (d: number) => new Date(DAY0 + d * 86_400_000).toISOString().slice(0, 10)

interface RawDoc { id: number; case_name: string; text: string; court_id: string; date_filed: string; docket_number: string }
function makeDoc(id: number): RawDoc {
  const len = 150 + Math.floor(rnd() * 300)
  const parts: string[] = []
  for (let i = 0; i < len; i++) {
    let w = WORDS[word()]
    if (i % 12 === 0) w = w[0].toUpperCase() + w.slice(1)
    parts.push(i % 12 === 11 ? `${w}.` : w)
    if (i % 97 === 50) parts.push(`${1 + Math.floor(rnd() * 900)} F.3d ${1 + Math.floor(rnd() * 1500)},`)
  }
  return {
    id,
    case_name: `${NAMES[name()]} v. ${NAMES[name()]}${rnd() < 0.2 ? ', Inc.' : ''}`,
    text: parts.join(' '),
    court_id: COURTS[court()],
    date_filed: dayString(Math.floor(rnd() * DAYS)),
    docket_number: `${10 + Math.floor(rnd() * 15)}-cv-${Math.floor(rnd() * 9999)}`,
  }
}

// ---------------------------------------------------------------- measurement helpers

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] }
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1))
async function timed(f: () => Promise<unknown>): Promise<number> { const t0 = performance.now(); await f(); return performance.now() - t0 }

const cfg = loadConfig()
const root = createDb(cfg, { useDatabase: false })
const db: Db = createDb(cfg, { database: DB })
const T = (name: string) => sql`${ident(DB)}.${ident(name)}`

// ---------------------------------------------------------------- query sets

interface QuerySet { kind: string; terms: string[][]; phrases: string[][]; names: string[]; filters: { court: string; from: string; to: string }[] }
const midTerm = () => WORDS[50 + Math.floor(rnd() * 4950)]
const samples: string[][] = []
function querySet(): QuerySet {
  const qs: QuerySet = { kind: '', terms: [], phrases: [], names: [], filters: [] }
  for (let i = 0; i < QUERIES; i++) {
    qs.terms.push([midTerm(), midTerm()])
    const toks = samples[Math.floor(rnd() * samples.length)]
    const at = Math.floor(rnd() * (toks.length - 3))
    qs.phrases.push(toks.slice(at, at + 2 + Math.floor(rnd() * 2)))
    qs.names.push(tokens(NAMES[Math.floor(rnd() * 2000)])[0])
    const y = 1950 + Math.floor(rnd() * 70)
    qs.filters.push({ court: COURTS[court()], from: `${y}-01-01`, to: `${y + 4}-12-31` })
  }
  return qs
}

interface Layout {
  name: string
  setup(): Promise<void>
  load(rows: RawDoc[]): Promise<void>
  /** wait for inserts still in flight */
  flush(): Promise<void>
  finish(): Promise<void>
  /** count + top 20 by date */
  byDate(kind: Kind, i: number): Promise<void>
  /** top 20 by BM25 (statistics included) */
  bm25(kind: Kind, i: number): Promise<void>
}
type Kind = 'term' | 'and2' | 'phrase' | 'field' | 'filtered'
const KINDS: Kind[] = ['term', 'and2', 'phrase', 'field', 'filtered']
let QS: QuerySet

/** The query each kind asks, in the query language (layout P parses and compiles it). */
function queryText(kind: Kind, i: number): string {
  const [a, b] = QS.terms[i]
  switch (kind) {
    case 'term': return a
    case 'and2': return `${a} ${b}`
    case 'phrase': return `"${QS.phrases[i].join(' ')}"`
    case 'field': return `caseName:${QS.names[i]}`
    case 'filtered': { const f = QS.filters[i]; return `${a} court_id:${f.court} dateFiled:[${f.from} TO ${f.to}]` }
  }
}

// ---------------------------------------------------------------- layout A: text index on token arrays

function layoutA(): Layout {
  const has = (col: string, t: string) => sql`has(${ident(col)}, ${t})`
  const phrase = (col: string, toks: string[]) => sql`(hasAllTokens(${ident(col)}, ${toks}) AND hasSubstr(${ident(col)}, ${toks}))`
  const anyField = (f: (c: string) => Sql) => sql`(${f('case_name')} OR ${f('text')})`
  const match = (kind: Kind, i: number): Sql => {
    const [a, b] = QS.terms[i]
    switch (kind) {
      case 'term': return anyField((c) => has(c, a))
      case 'and2': return sql`${anyField((c) => has(c, a))} AND ${anyField((c) => has(c, b))}`
      case 'phrase': return anyField((c) => phrase(c, QS.phrases[i]))
      case 'field': return has('case_name', QS.names[i])
      case 'filtered': { const f = QS.filters[i]; return sql`${anyField((c) => has(c, a))} AND court_id = ${f.court} AND date_filed BETWEEN ${param(f.from, 'Date32')} AND ${param(f.to, 'Date32')}` }
    }
  }
  const termsOf = (kind: Kind, i: number) => (kind === 'term' || kind === 'filtered' ? [QS.terms[i][0]] : kind === 'and2' ? QS.terms[i] : kind === 'phrase' ? QS.phrases[i] : [QS.names[i]])
  const fin = FINAL ? raw(' FINAL') : raw('')
  return {
    name: `A text index${FINAL ? ' (FINAL)' : ''}`,
    async setup() {
      await db.command(sql`CREATE TABLE ${T('a_docs')} (id UInt64, version UInt64, court_id LowCardinality(String), date_filed Date32,
        case_name_src String EPHEMERAL, text_src String EPHEMERAL,
        case_name Array(String) DEFAULT if(case_name_src = '', [], splitByChar(' ', case_name_src)),
        text Array(String) DEFAULT if(text_src = '', [], splitByChar(' ', text_src)),
        case_name_len UInt32, text_len UInt32,
        INDEX cn_idx case_name TYPE text(tokenizer = array), INDEX tx_idx text TYPE text(tokenizer = array))
        ENGINE = ReplacingMergeTree(version) ORDER BY id`)
    },
    async load(rows) {
      const out: unknown[][] = []
      for (const r of rows) {
        const cn = tokens(r.case_name)
        const tx = tokens(r.text)
        out.push([r.id, 1, r.court_id, r.date_filed, cn.join(' '), tx.join(' '), cn.length, tx.length])
      }
      await db.insertCompact('a_docs', ['id', 'version', 'court_id', 'date_filed', 'case_name_src', 'text_src', 'case_name_len', 'text_len'], out)
    },
    async flush() {},
    async finish() { await db.command(sql`OPTIMIZE TABLE ${T('a_docs')} FINAL`) },
    async byDate(kind, i) {
      const m = match(kind, i)
      await Promise.all([
        db.query(sql`SELECT id FROM ${T('a_docs')}${fin} WHERE ${m} ORDER BY date_filed DESC, id DESC LIMIT 20`),
        db.query(sql`SELECT count() AS n FROM ${T('a_docs')}${fin} WHERE ${m}`),
      ])
    },
    async bm25(kind, i) {
      const terms = termsOf(kind, i)
      const m = match(kind, i)
      const [st] = await db.query<Record<string, number>>(sql`SELECT count() AS n, avg(case_name_len) AS acn, avg(text_len) AS atx,
        ${join(terms.map((t, k) => sql`(SELECT count() FROM ${T('a_docs')}${fin} WHERE ${has('text', t)}) AS ${ident(`df${k}`)}`), ', ')} FROM ${T('a_docs')}${fin}`)
      const score = join(terms.map((t, k) => {
        const idf = Math.log(1 + (st.n - st[`df${k}`] + 0.5) / (st[`df${k}`] + 0.5))
        return sql`${idf} * (4 * tfn(countEqual(case_name, ${t}), case_name_len, ${st.acn}) + tfn(countEqual(text, ${t}), text_len, ${st.atx}))`
      }), ' + ')
      await db.query(sql`WITH (tf, dl, avgdl) -> tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / avgdl)) AS tfn
        SELECT id, ${score} AS score FROM ${T('a_docs')}${fin} WHERE ${m} ORDER BY score DESC, id DESC LIMIT 20`)
    },
  }
}

// ---------------------------------------------------------------- layout P: postings, as production builds them (index-rows.ts, query-sql.ts)

function layoutP(): Layout {
  const tables = { database: DB, table: 'p_search_o' }
  let pending: Promise<void> = Promise.resolve()
  return {
    name: 'P postings (production)',
    async setup() { for (const q of searchTableDdl('o', tables)) await db.command(q) },
    async load(rows) {
      // the indexer prepares batch i+1 while ClickHouse writes batch i
      const out = toIndexRows('o', rows.map((r) => ({ doc: analyzeDocument('o', r as unknown as SearchDocument), version: 1 })))
      await pending
      pending = writeIndexRows(db, 'o', out, tables)
    },
    async flush() { await pending },
    async finish() {
      await db.command(sql`OPTIMIZE TABLE ${T(tables.table)} FINAL`)
      await db.command(sql`OPTIMIZE TABLE ${T(searchTables('o', tables).postings)} FINAL`)
      await db.command(refreshSql('o', tables)) // the dictionary of current versions, now
    },
    async byDate(kind, i) {
      const ast = parseQuery(queryText(kind, i), 'o')
      const opts = { ...tables, order: [{ field: 'dateFiled', dir: 'desc' as const }], limit: 20, final: FINAL }
      await Promise.all([db.query(searchSql(ast, 'o', opts)), db.query(countSql(ast, 'o', opts))])
    },
    async bm25(kind, i) {
      const ast = parseQuery(queryText(kind, i), 'o')
      const opts = { ...tables, limit: 20, final: FINAL }
      const stats = (await db.query<SearchStats>(statsSql(ast, 'o', opts)))[0]
      await db.query(searchSql(ast, 'o', { ...opts, stats }))
    },
  }
}

// ---------------------------------------------------------------- layout B: tokenbf_v1 on a joined string

function layoutB(): Layout {
  const has = (col: string, t: string) => sql`hasToken(${ident(col)}, ${t})`
  const phrase = (col: string, toks: string[]) => sql`(${join(toks.map((t) => has(col, t)), ' AND ')} AND position(${ident(col)}, ${` ${toks.join(' ')} `}) > 0)`
  const anyField = (f: (c: string) => Sql) => sql`(${f('case_name')} OR ${f('text')})`
  const match = (kind: Kind, i: number): Sql => {
    const [a, b] = QS.terms[i]
    switch (kind) {
      case 'term': return anyField((c) => has(c, a))
      case 'and2': return sql`${anyField((c) => has(c, a))} AND ${anyField((c) => has(c, b))}`
      case 'phrase': return anyField((c) => phrase(c, QS.phrases[i]))
      case 'field': return has('case_name', QS.names[i])
      case 'filtered': { const f = QS.filters[i]; return sql`${anyField((c) => has(c, a))} AND court_id = ${f.court} AND date_filed BETWEEN ${param(f.from, 'Date32')} AND ${param(f.to, 'Date32')}` }
    }
  }
  const termsOf = (kind: Kind, i: number) => (kind === 'term' || kind === 'filtered' ? [QS.terms[i][0]] : kind === 'and2' ? QS.terms[i] : kind === 'phrase' ? QS.phrases[i] : [QS.names[i]])
  return {
    name: 'B tokenbf_v1',
    async setup() {
      await db.command(sql`CREATE TABLE ${T('b_docs')} (id UInt64, court_id LowCardinality(String), date_filed Date32,
        case_name String, text String, case_name_len UInt32, text_len UInt32,
        INDEX cn_bf case_name TYPE tokenbf_v1(4096, 2, 0) GRANULARITY 1,
        INDEX tx_bf text TYPE tokenbf_v1(65536, 2, 0) GRANULARITY 1)
        ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = 1024`)
    },
    async load(rows) {
      const out: unknown[][] = []
      for (const r of rows) {
        const cn = tokens(r.case_name)
        const tx = tokens(r.text)
        out.push([r.id, r.court_id, r.date_filed, ` ${cn.join(' ')} `, ` ${tx.join(' ')} `, cn.length, tx.length])
      }
      await db.insertCompact('b_docs', ['id', 'court_id', 'date_filed', 'case_name', 'text', 'case_name_len', 'text_len'], out)
    },
    async flush() {},
    async finish() { await db.command(sql`OPTIMIZE TABLE ${T('b_docs')} FINAL`) },
    async byDate(kind, i) {
      const m = match(kind, i)
      await Promise.all([
        db.query(sql`SELECT id FROM ${T('b_docs')} WHERE ${m} ORDER BY date_filed DESC, id DESC LIMIT 20`),
        db.query(sql`SELECT count() AS n FROM ${T('b_docs')} WHERE ${m}`),
      ])
    },
    async bm25(kind, i) {
      const terms = termsOf(kind, i)
      const m = match(kind, i)
      const [st] = await db.query<Record<string, number>>(sql`SELECT count() AS n, avg(case_name_len) AS acn, avg(text_len) AS atx,
        ${join(terms.map((t, k) => sql`countIf(${has('text', t)}) AS ${ident(`df${k}`)}`), ', ')} FROM ${T('b_docs')}`)
      const score = join(terms.map((t, k) => {
        const idf = Math.log(1 + (st.n - st[`df${k}`] + 0.5) / (st[`df${k}`] + 0.5))
        return sql`${idf} * (4 * tfn(countSubstrings(case_name, ${` ${t} `}), case_name_len, ${st.acn}) + tfn(countSubstrings(text, ${` ${t} `}), text_len, ${st.atx}))`
      }), ' + ')
      await db.query(sql`WITH (tf, dl, avgdl) -> tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / avgdl)) AS tfn
        SELECT id, ${score} AS score FROM ${T('b_docs')} WHERE ${m} ORDER BY score DESC, id DESC LIMIT 20`)
    },
  }
}

// ---------------------------------------------------------------- layout C: postings tables

/** C: postings built by ClickHouse (materialized views that group); D: postings computed by the indexer (JS), exploded by ARRAY JOIN. */
function layoutC(mode: 'C' | 'D'): Layout {
  const x = mode.toLowerCase()
  const P = T(`${x}_post`)
  const D = T(`${x}_docs`)
  const IN = T(`${x}_in`)
  const docsWith = (fields: string[], t: string) => sql`SELECT doc FROM ${P} WHERE field IN ${fields} AND term = ${t}`
  const DEF = ['case_name', 'text']
  const phraseDocs = (fields: string[], toks: string[]) => {
    // positions of each token per doc, then consecutive positions
    const conds = toks.slice(1).map((t, k) => sql`has(arrayFlatten(groupArrayIf(pos, term = ${t})), p + ${k + 1})`)
    return sql`SELECT doc FROM ${P} WHERE field IN ${fields} AND term IN ${toks} GROUP BY field, doc
      HAVING uniqExact(term) = ${new Set(toks).size} AND arrayExists(p -> ${join(conds, ' AND ')}, arrayFlatten(groupArrayIf(pos, term = ${toks[0]})))`
  }
  const matchDocs = (kind: Kind, i: number): Sql => {
    const [a, b] = QS.terms[i]
    switch (kind) {
      case 'term': return docsWith(DEF, a)
      case 'and2': return sql`SELECT doc FROM ${P} WHERE field IN ${DEF} AND term IN ${[a, b]} GROUP BY doc HAVING uniqExact(term) = 2`
      case 'phrase': return phraseDocs(DEF, QS.phrases[i])
      case 'field': return docsWith(['case_name'], QS.names[i])
      case 'filtered': {
        const f = QS.filters[i]
        return sql`${docsWith(DEF, a)} AND doc IN (SELECT id FROM ${D} WHERE court_id = ${f.court} AND date_filed BETWEEN ${param(f.from, 'Date32')} AND ${param(f.to, 'Date32')})`
      }
    }
  }
  const termsOf = (kind: Kind, i: number) => (kind === 'term' || kind === 'filtered' ? [QS.terms[i][0]] : kind === 'and2' ? QS.terms[i] : kind === 'phrase' ? QS.phrases[i] : [QS.names[i]])
  return {
    name: mode === 'C' ? 'C postings (MV group by)' : 'D postings (indexer-built)',
    async setup() {
      if (mode === 'D') {
        await db.command(sql`CREATE TABLE ${IN} (id UInt64, court_id String, date_filed Date32, case_name_len UInt32, text_len UInt32,
          p_field Array(LowCardinality(String)), p_term Array(String), p_tf Array(UInt16), p_dl Array(UInt32), p_pos Array(Array(UInt32))) ENGINE = Null`)
        await db.command(sql`CREATE TABLE ${D} (id UInt64, court_id LowCardinality(String), date_filed Date32, case_name_len UInt32, text_len UInt32) ENGINE = MergeTree ORDER BY id`)
        await db.command(sql`CREATE TABLE ${P} (field LowCardinality(String), term String, doc UInt64, tf UInt16, dl UInt32, pos Array(UInt32))
          ENGINE = MergeTree ORDER BY (field, term, doc)`)
        await db.command(sql`CREATE MATERIALIZED VIEW ${T(`${x}_mv_docs`)} TO ${D} AS SELECT id, court_id, date_filed, case_name_len, text_len FROM ${IN}`)
        await db.command(sql`CREATE MATERIALIZED VIEW ${T(`${x}_mv_post`)} TO ${P} AS
          SELECT field, term, id AS doc, tf, dl, pos FROM ${IN} ARRAY JOIN p_field AS field, p_term AS term, p_tf AS tf, p_dl AS dl, p_pos AS pos`)
        return
      }
      await db.command(sql`CREATE TABLE ${IN} (id UInt64, court_id String, date_filed Date32, case_name String, text String) ENGINE = Null`)
      await db.command(sql`CREATE TABLE ${D} (id UInt64, court_id LowCardinality(String), date_filed Date32, case_name_len UInt32, text_len UInt32) ENGINE = MergeTree ORDER BY id`)
      await db.command(sql`CREATE TABLE ${P} (field LowCardinality(String), term String, doc UInt64, tf UInt16, dl UInt32, pos Array(UInt32))
        ENGINE = MergeTree ORDER BY (field, term, doc)`)
      await db.command(sql`CREATE MATERIALIZED VIEW ${T(`${x}_mv_docs`)} TO ${D} AS SELECT id, court_id, date_filed,
        length(splitByChar(' ', case_name)) AS case_name_len, length(splitByChar(' ', text)) AS text_len FROM ${IN}`)
      for (const f of ['case_name', 'text']) {
        await db.command(sql`CREATE MATERIALIZED VIEW ${T(`${x}_mv_${f}`)} TO ${P} AS
          SELECT ${f} AS field, tp.1 AS term, id AS doc, toUInt16(count()) AS tf, any(dl) AS dl, groupArray(toUInt32(tp.2)) AS pos
          FROM (SELECT id, splitByChar(' ', ${ident(f)}) AS toks, length(toks) AS dl, arrayJoin(arrayZip(toks, range(length(toks)))) AS tp FROM ${IN})
          GROUP BY term, doc`)
      }
    },
    async load(rows) {
      const out: unknown[][] = []
      if (mode === 'D') {
        for (const r of rows) {
          const ad = analyzeDocument('o', r as unknown as SearchDocument)
          const f: string[] = []
          const term: string[] = []
          const tf: number[] = []
          const dl: number[] = []
          const pos: number[][] = []
          for (const col of ['case_name', 'text']) {
            const a = ad.text[col]
            for (const [t, p] of a.positions) { f.push(col); term.push(t); tf.push(p.length); dl.push(a.length); pos.push(p as number[]) }
          }
          out.push([r.id, r.court_id, r.date_filed, ad.text.case_name.length, ad.text.text.length, f, term, tf, dl, pos])
        }
        await db.insertCompact(`${x}_in`, ['id', 'court_id', 'date_filed', 'case_name_len', 'text_len', 'p_field', 'p_term', 'p_tf', 'p_dl', 'p_pos'], out)
        return
      }
      for (const r of rows) out.push([r.id, r.court_id, r.date_filed, tokens(r.case_name).join(' '), tokens(r.text).join(' ')])
      await db.insertCompact(`${x}_in`, ['id', 'court_id', 'date_filed', 'case_name', 'text'], out)
    },
    async flush() {},
    async finish() { await db.command(sql`OPTIMIZE TABLE ${P} FINAL`) },
    async byDate(kind, i) {
      const m = matchDocs(kind, i)
      await Promise.all([
        db.query(sql`SELECT id FROM ${D} WHERE id IN (${m}) ORDER BY date_filed DESC, id DESC LIMIT 20`),
        db.query(sql`SELECT uniqExact(doc) AS n FROM (${m})`),
      ])
    },
    async bm25(kind, i) {
      const terms = termsOf(kind, i)
      const fields = kind === 'field' ? ['case_name'] : DEF
      const [st] = await db.query<{ n: number; acn: number; atx: number }>(sql`SELECT count() AS n, avg(case_name_len) AS acn, avg(text_len) AS atx FROM ${D}`)
      const dfs = await db.query<{ field: string; term: string; df: number }>(sql`SELECT field, term, count() AS df FROM ${P} WHERE field IN ${fields} AND term IN ${terms} GROUP BY field, term`)
      const idf = (f: string, t: string) => { const df = dfs.find((d) => d.field === f && d.term === t)?.df ?? 0; return Math.log(1 + (st.n - df + 0.5) / (df + 0.5)) }
      const weights = fields.flatMap((f) => terms.map((t) => (f === 'case_name' ? 4 : 1) * idf(f, t)))
      const keys = fields.flatMap((f) => terms.map((t) => `${f}\u0000${t}`))
      await db.query(sql`SELECT doc, sum(transform(concat(field, '\\0', term), ${keys}, ${weights}, 0.0) * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / if(field = 'case_name', ${st.acn}, ${st.atx})))) AS score
        FROM ${P} WHERE field IN ${fields} AND term IN ${terms} AND doc IN (${matchDocs(kind, i)})
        GROUP BY doc ORDER BY score DESC, doc DESC LIMIT 20`)
    },
  }
}

// ---------------------------------------------------------------- run

async function main(): Promise<void> {
  await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`)
  await root.command(sql`CREATE DATABASE ${ident(DB)}`)
  const layouts = [layoutA(), layoutB(), layoutC('C'), layoutC('D'), layoutP()].filter((l) => ONLY.has(l.name[0]))
  for (const l of layouts) await l.setup()

  const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ')
  console.log(`search machinery: ${N} documents, ${QUERIES} queries per kind, ClickHouse ${cfg.clickhouseUrl}, ${os.cpus().length} CPUs, load average ${load()}`)
  // documents are generated batch by batch (the same ones for every layout: the generator is
  // re-seeded per batch), so 1M documents never sit in memory at once
  const batch = (start: number): RawDoc[] => {
    rnd = mulberry32((start * 2654435761) | 1)
    const out: RawDoc[] = []
    for (let id = start; id < start + BATCH && id <= N; id++) out.push(makeDoc(id))
    return out
  }
  let chars = 0
  let anaMs = 0
  let analyzed = 0
  for (let start = 1; start <= Math.min(N, 100_000); start += BATCH) {
    const docs = batch(start)
    const ta = performance.now()
    for (const d of docs) { chars += d.text.length + d.case_name.length; const t = tokens(d.text); tokens(d.case_name); if (samples.length < 500 && d.id % 97 === 0) samples.push(t) }
    anaMs += performance.now() - ta
    analyzed += docs.length
  }
  console.log(`analyzer: ${(chars / 1e6).toFixed(0)} MB of ${analyzed} documents in ${(anaMs / 1000).toFixed(2)} s = ${((chars / anaMs) * 1000 / 1e6).toFixed(1)} M chars/s (${((analyzed / anaMs) * 1000).toFixed(0)} docs/s, one core)`)
  QS = querySet()

  const rows: string[][] = []
  for (const l of layouts) {
    const tl = performance.now()
    let genMs = 0
    for (let start = 1; start <= N; start += BATCH) {
      const tg = performance.now()
      const docs = batch(start)
      genMs += performance.now() - tg
      await l.load(docs)
    }
    await l.flush()
    const loadMs = performance.now() - tl - genMs
    const tm = performance.now()
    await l.finish()
    const mergeMs = performance.now() - tm
    const line = [l.name, `${Math.round((N / loadMs) * 1000)}`, `${(mergeMs / 1000).toFixed(1)}`]
    for (const kind of KINDS) {
      for (const which of ['byDate', 'bm25'] as const) {
        const times: number[] = []
        for (let w = 0; w < 2; w++) await l[which](kind, w) // warm-up
        for (let i = 0; i < QUERIES; i++) times.push(await timed(() => l[which](kind, i)))
        line.push(`${fmt(pct(times, 50))}/${fmt(pct(times, 95))}`)
      }
    }
    rows.push(line)
    console.log(`${l.name}: loaded at ${line[1]} docs/s, queried (load average ${load()})`)
  }
  const size = await root.query<{ t: string; bytes: string }>(sql`SELECT table AS t, formatReadableSize(sum(bytes_on_disk)) AS bytes FROM system.parts WHERE database = ${DB} AND active GROUP BY table ORDER BY table`)
  const head = ['layout', 'load docs/s', 'merge s', ...KINDS.flatMap((k) => [`${k} date`, `${k} bm25`])]
  console.log(`\nload average at the end: ${load()}`)
  console.log(`\np50/p95 ms per query kind ("date" = count + top 20 by date, "bm25" = statistics + top 20 by BM25)`)
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`)
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)
  console.log(`\non disk: ${size.map((s) => `${s.t} ${s.bytes}`).join(', ')}`)
}

main()
  .catch((err) => { console.error(err); process.exitCode = 1 })
  .finally(async () => {
    if (!KEEP) await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`).catch(() => {})
    await db.close()
    await root.close()
  })
void raw
