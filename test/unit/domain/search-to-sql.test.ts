import t from 'tap'
import { compile as compileSql, type Sql } from '../../../core/sql.js'

/** compiled, with the whitespace of multi-line templates folded */
const compile = (q: Sql) => { const c = compileSql(q); return { query: c.query.replace(/\s+/g, ' '), query_params: c.query_params } }
import { parseQuery } from '../../../domain/search/parse.js'
import { analyzeDocument } from '../../../domain/search/document.js'
import { searchSql, countSql, statsSql, expansionSql, toIndexRows, indexColumns, searchTableDdl, searchTables } from '../../../domain/search/to-sql.js'
import { scoringPlan, weights, idf } from '../../../domain/search/bm25.js'
import { SEARCH_TYPES } from '../../../domain/search/fields.js'

const count = (q: string, type: 'o' | 'rd' | 'p' = 'o', opts = {}) => compile(countSql(parseQuery(q, type), type, { final: false, ...opts }))

t.test('every user value is a bound parameter', async (t) => {
  const hostile = "x') OR 1=1; DROP TABLE search_o; --"
  const c = compile(searchSql(parseQuery(`caseName:"${hostile.replace(/"/g, '')}" court_id:"${hostile}" smi*`, 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20 }))
  t.notMatch(c.query, /DROP|1=1|smi/)
  t.ok(Object.values(c.query_params).includes("x') or 1=1; drop table search_o; --"), 'the keyword value travels as a parameter')
  t.match(c.query, /d\.`court_id` = \{p\d+:String\}/)
})

t.test('documents only, when the query has no text leaf', async (t) => {
  const c = count('court_id:ca9 dateFiled:[2020 TO *]')
  t.equal(c.query, 'SELECT count() AS count FROM `search_o` AS d WHERE (ifNull(d.`court_id` = {p1:String}, false) AND ifNull(d.`date_filed` >= {p2:Date32}, false))')
  t.same(c.query_params, { p1: 'ca9', p2: '2020-01-01' })
  t.equal(count('').query, 'SELECT count() AS count FROM `search_o` AS d WHERE 1')
  t.equal(count('foo:bar').query, 'SELECT count() AS count FROM `search_o` AS d WHERE 0')
  t.equal(count('panel_ids:[1 TO 3]').query, 'SELECT count() AS count FROM `search_o` AS d WHERE arrayExists(x -> x >= {p1:Int64} AND x <= {p2:Int64}, d.`panel_ids`)')
  t.equal(count('NOT court_id:ca9').query, 'SELECT count() AS count FROM `search_o` AS d WHERE NOT ifNull(d.`court_id` = {p1:String}, false)')
  t.equal(count('court_id:sco*').query, 'SELECT count() AS count FROM `search_o` AS d WHERE ifNull(startsWith(d.`court_id`, {p1:String}), false)')
  t.equal(count('is_available:true', 'rd').query, 'SELECT count() AS count FROM `search_rd` AS d WHERE ifNull(d.`is_available` = {p1:Bool}, false)')
})

t.test('text leaves: one aggregation over their postings, joined by (id, version)', async (t) => {
  const c = count('caseName:smith')
  t.equal(c.query, 'SELECT count() AS count FROM `search_o` AS d INNER JOIN (SELECT id, version, max(field = {p1:String} AND term = {p2:String}) AS `l0`, toFloat64(0) AS score FROM (SELECT field, term, id, version, tf, dl, pos FROM `search_o_postings` ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl, poss AS pos PREWHERE (field = {p3:String} AND term = {p4:String})) GROUP BY id, version) AS s ON s.id = d.id AND s.version = d.version WHERE d.id IN (SELECT id FROM `search_o_postings` ARRAY JOIN ids AS id PREWHERE (field = {p5:String} AND term = {p6:String})) AND ifNull(s.`l0`, 0)')
  t.same(c.query_params, { p1: 'case_name', p2: 'smith', p3: 'case_name', p4: 'smith', p5: 'case_name', p6: 'smith' })
  t.match(count('smith OR court_id:ca9').query, / LEFT JOIN /, 'a document may match without postings')
  t.match(count('-smith').query, / LEFT JOIN .* WHERE NOT ifNull\(s.`l0`, 0\)$/)
  t.match(count('smith court_id:ca9').query, / INNER JOIN /)
  t.match(count('smith', 'o', { final: true }).query, /FROM `search_o` AS d FINAL INNER JOIN \(SELECT .* FROM `search_o_postings` ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl, poss AS pos PREWHERE/)
})

t.test('phrases, proximity and prefixes compile to position checks and key ranges', async (t) => {
  const ph = count('caseName:"a b c"').query
  t.match(ph, /max\(\(\(field = \{p1:String\} AND term IN \{p2:Array\(String\)\}\) AND `ph0`\)\) AS `l0`/, 'the flag: a row of the phrase in a document it matches')
  t.match(ph, /\(id, version\) IN \(SELECT t0.id AS id, t0.version AS version FROM \(SELECT field, id, version, pos FROM `search_o_postings` ARRAY JOIN ids AS id, versions AS version, poss AS pos PREWHERE field = \{p\d+:String\} AND term = \{p\d+:String\}\) AS `t0` INNER JOIN .* AS `t1` ON `t1`.id = t0.id AND `t1`.version = t0.version AND `t1`.field = t0.field INNER JOIN .* AS `t2` ON .* WHERE arrayExists\(p -> has\(`t1`.pos, p \+ \{p\d+:Int64\}\) AND has\(`t2`.pos, p \+ \{p\d+:Int64\}\), t0.pos\)\) AS `ph0`/, 'postings joined on (id, version, field), positions compared')
  t.match(ph, /\) WHERE \(\(field = \{p\d+:String\} AND term IN \{p\d+:Array\(String\)\}\) AND `ph0`\) GROUP BY/, 'a phrase reads only the documents it matches')
  t.equal((ph.match(/ AS `ph0`/g) ?? []).length, 1, 'the phrase set is computed once')
  const px = count('caseName:"a b"~3')
  t.match(px.query, /WHERE arrayExists\(p -> arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t0`.pos\) AND arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t1`.pos\), arrayConcat\(`t0`.pos, `t1`.pos\)\)/)
  t.ok(Object.values(px.query_params).includes(4), 'window width: slop + k - 1')
  const pre = count('caseName:smi*')
  t.match(pre.query, /max\(field = \{p1:String\} AND startsWith\(term, \{p2:String\}\)\) AS `l0`/)
  t.match(pre.query, /PREWHERE \(field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\)\)\) GROUP BY/)
  const dflt = count('duty')
  t.same(dflt.query_params.p1, SEARCH_TYPES.o.defaults.map((f) => f.column), 'unfielded terms read every default field')
})

t.test('prefix expansion listing for callers that limit breadth', async (t) => {
  const e = compile(expansionSql(parseQuery('caseName:smi*', 'o'), 'o', { maxExpansions: 10 })!)
  t.match(e.query, /SELECT DISTINCT term FROM `search_o_postings` WHERE field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\) LIMIT \{p\d:UInt64\}/)
  t.ok(Object.values(e.query_params).includes(11))
  t.equal(expansionSql(parseQuery('smith', 'o'), 'o'), null)
})

t.test('ordering: BM25 needs stats, ties broken by id', async (t) => {
  const ast = parseQuery('smith -jones', 'o')
  t.throws(() => searchSql(ast, 'o'), /needs stats/)
  const plan = scoringPlan(ast, SEARCH_TYPES.o)
  t.same(plan.terms.map((k) => k.key), SEARCH_TYPES.o.defaults.map((f) => `${f.column}:smith`), 'negated terms do not score')
  const stats = { n: 10, avgdl: { case_name: 3 }, df: { 'case_name:smith': 2 } }
  t.equal(weights(plan, stats).get('case_name:smith'), 4 * idf(10, 2))
  const s = compile(searchSql(ast, 'o', { stats, limit: 20, offset: 40 }))
  t.match(s.query, /^SELECT d.id AS id, s.score AS score FROM `search_o` AS d FINAL INNER JOIN \(SELECT id, version, .*arraySum\(x -> transform\(concat\(x.1, ':', x.2\), \{p\d+:Array\(String\)\}, \{p\d+:Array\(Float64\)\}, toFloat64\(0\)\) \* x.3 \* .*groupUniqArrayIf\(\(toString\(field\), term, tf, dl\)/, 'distinct postings: a batch indexed twice counts once')
  t.match(s.query, / ORDER BY score DESC, id DESC LIMIT \{p\d+:UInt64\} OFFSET \{p\d+:UInt64\}$/)
  const d = compile(searchSql(parseQuery('court_id:ca9', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'asc' }], final: false }))
  t.equal(d.query, 'SELECT d.id AS id, toFloat64(0) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE ifNull(d.`court_id` = {p1:String}, false) ORDER BY `date_filed` ASC NULLS LAST, id ASC')
  t.throws(() => searchSql(ast, 'o', { order: [{ field: 'caseName', dir: 'asc' }] }), /cannot order by caseName/)
  const st = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { database: 'db1' }))
  t.match(st.query, /^SELECT count\(\) AS n, map\(\{p1:String\}, avg\(`case_name_len`\)\) AS avgdl, \(SELECT CAST\(\(groupArray\(k\), groupArray\(c\)\), 'Map\(String, UInt64\)'\) FROM .*`db1`.`search_o_postings` .*\) AS df FROM `db1`.`search_o` FINAL$/)
})

t.test('filters are ANDed with the query and do not score', async (t) => {
  const c = count('smith', 'o', { filters: parseQuery('court_id:ca9', 'o') })
  t.match(c.query, /WHERE d.id IN \(SELECT id FROM .*\) AND \(ifNull\(s.`l0`, 0\) AND ifNull\(d.`court_id` = \{p\d+:String\}, false\)\)$/)
})

t.test('index rows: the document columns and each text field as space-joined tokens', async (t) => {
  const doc = analyzeDocument('o', { id: 7, case_name: 'Smith v. Smith', citation: ['1 U.S. 2', '3 F.3d 4'], court_id: 'CA9', date_filed: '2020-01-02T00:00:00Z', panel_ids: [3, 4], cite_count: null })
  const [row] = toIndexRows('o', doc, 5)
  t.equal(row.id, 7)
  t.equal(row.version, 5)
  t.equal(row.is_deleted, 0)
  t.equal(row.case_name_len, 3)
  t.equal(row.case_name_src, 'smith v smith')
  t.equal(row.citation_len, 8)
  t.equal(row.citation_src, '1 u s 2  3 f 3d 4', 'the gap between values is an empty token')
  t.equal(row.text_len, 0)
  t.equal(row.text_src, '')
  t.equal(row.court_id, 'ca9')
  t.equal(row.date_filed, '2020-01-02')
  t.same(row.panel_ids, [3, 4])
  t.equal(row.cite_count, null)
  t.same(Object.keys(row).sort(), [...indexColumns('o')].sort())
  const [gone] = toIndexRows('o', doc, 6, true)
  t.equal(gone.is_deleted, 1)
  t.equal(gone.case_name_src, '', 'a deleted document has no postings')
})

t.test('DDL: documents, postings, a Null ingest table and the views between them', async (t) => {
  for (const type of ['o', 'r', 'd', 'rd', 'p', 'oa'] as const) {
    const ddl = searchTableDdl(type).map(compile)
    t.equal(ddl.length, 5)
    for (const q of ddl) t.same(q.query_params, {}, `${type}: DDL has no parameters`)
    const names = searchTables(type)
    t.match(ddl[0].query, new RegExp(`^CREATE TABLE IF NOT EXISTS \`${names.docs}\` .*ENGINE = ReplacingMergeTree\\(version, is_deleted\\) ORDER BY id$`, 's'))
    t.match(ddl[1].query, /ids Array\(Int64\), versions Array\(UInt64\), tfs Array\(UInt32\), dls Array\(UInt32\), poss Array\(Array\(UInt32\)\)\) ENGINE = MergeTree ORDER BY \(field, term\)$/)
    t.match(ddl[2].query, /ENGINE = Null$/)
    t.match(ddl[4].query, /FROM \(SELECT id, version, arrayConcat\(arrayFilter\(x -> x.2 != '', .* WHERE is_deleted = 0\) ARRAY JOIN ps AS p GROUP BY field, term$/)
  }
})
