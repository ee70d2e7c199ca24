import t from 'tap'
import { compile as compileSql, type Sql } from '../../../core/sql.js'

/** compiled, with the whitespace of multi-line templates folded */
const compile = (q: Sql) => { const c = compileSql(q); return { query: c.query.replace(/\s+/g, ' '), query_params: c.query_params } }
import { parseQuery } from '../../../domain/search/parse.js'
import { analyzeDocument } from '../../../domain/search/document.js'
import { searchSql, countSql, statsSql, corpusStatsSql, refreshSql, expansionSql, toIndexRows, indexColumns, searchTableDdl, searchTables, COMMON_WORDS } from '../../../domain/search/to-sql.js'
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

const LIVE = "dictGetOrDefault('search_o_live', 'live', id, toUInt64(0)) = version + 1"

t.test('text leaves: one aggregation over their postings, current versions by the dictionary, no documents table', async (t) => {
  const c = count('caseName:smith', 'o', { final: true })
  t.equal(c.query, `SELECT count() AS count FROM (SELECT id, max(\`m0\`) AS \`l0\`, toFloat64(0) AS score FROM (SELECT id, tf, dl, (\`m0\`) AS rd, \`m0\` FROM (SELECT ids, versions, tfs, dls, (field = {p1:String} AND term = {p2:String}) AS \`m0\` FROM \`search_o_postings\` PREWHERE (field = {p3:String} AND term = {p4:String})) ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl WHERE ${LIVE}) WHERE rd GROUP BY id) AS s WHERE ifNull(s.\`l0\`, 0)`)
  t.same(c.query_params, { p1: 'case_name', p2: 'smith', p3: 'case_name', p4: 'smith' })
  t.notMatch(c.query, /`search_o`/, 'text alone never reads the documents')
  t.notMatch(count('caseName:smith').query, /dictGet/, 'final: false reads every version')
  const lj = count('smith OR court_id:ca9', 'o', { final: true }).query
  t.match(lj, /^SELECT count\(\) AS count FROM \(SELECT id, `court_id` FROM `search_o` AS d WHERE dictGetOrDefault\('search_o_live', 'live', id, toUInt64\(0\)\) = version \+ 1 LIMIT 1 BY id\) AS d LEFT JOIN \(SELECT id, /, 'a document may match without postings: every current document, once')
  t.match(count('-smith', 'o', { final: true }).query, / LEFT JOIN .* WHERE NOT ifNull\(s.`l0`, 0\)$/)
  const ij = count('(smith OR court_id:ca9) jones', 'o', { final: true }).query
  t.match(ij, /^SELECT count\(\) AS count FROM \(SELECT id, `court_id` FROM `search_o` AS d WHERE id IN \(SELECT id FROM `search_o_postings` ARRAY JOIN ids AS id PREWHERE .*\) AND dictGetOrDefault.* LIMIT 1 BY id\) AS d INNER JOIN /, 'text and document clauses mixed: documents pruned by the postings ids, joined')
  const semi = count('smith court_id:ca9', 'o', { final: true }).query
  t.match(semi, /^SELECT count\(\) AS count FROM \(SELECT id, .* ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl WHERE id IN \(SELECT id FROM `search_o` AS d WHERE ifNull\(d.`court_id` = \{p\d+:String\}, false\) AND dictGetOrDefault.*\) AND dictGetOrDefault.*\) WHERE rd GROUP BY id\) AS s WHERE ifNull\(s.`l0`, 0\)$/, 'text AND clauses on documents: the postings restricted to the documents the clauses keep')
  const byDate = compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20, final: true })).query
  t.match(byDate, /^SELECT d.id AS id, toFloat64\(0\) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE d.id IN \(SELECT s.id FROM \(SELECT id, .*\) AS s WHERE ifNull\(s.`l0`, 0\)\) AND dictGetOrDefault.* ORDER BY `date_filed` DESC NULLS LAST, id DESC LIMIT 1 BY id LIMIT \{p\d+:UInt64\}$/, 'ordered by a document column: the current documents the text matches, once each')
  t.match(compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], database: 'db1', final: true })).query, /dictGetOrDefault\('db1.search_o_live', 'live', id/)
  t.match(compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }, { field: 'score', dir: 'desc' }], stats: { n: 1, avgdl: {}, df: {} }, final: true })).query, /^SELECT d.id AS id, s.score AS score, d.`date_filed` AS `date_filed` FROM \(SELECT id, `date_filed` FROM `search_o` AS d WHERE .* INNER JOIN/, 'a document column and the score: joined')
})

t.test('phrases: grams for pairs with a common word, positions compared; proximity and prefixes', async (t) => {
  const ph = count('caseName:"a b c"', 'o', { final: true }).query
  t.match(ph, /max\(\(`m0` AND `ph0`\)\) AS `l0`/, 'the flag: a row of the phrase in a document it matches')
  t.match(ph, /id IN \(SELECT `t0`.id AS id FROM \(SELECT replaceOne\(toString\(field\), '~2', ''\) AS f, id, version, pos FROM `search_o_postings` ARRAY JOIN ids AS id, versions AS version, poss AS pos PREWHERE field = \{p\d+:String\} AND term = \{p\d+:String\} WHERE dictGetOrDefault.*\) AS `t0` INNER JOIN \(SELECT toString\(field\) AS f, id, version, pos FROM .* AS `t1` ON `t1`.id = `t0`.id AND `t1`.version = `t0`.version AND `t1`.f = `t0`.f WHERE arrayExists\(p -> has\(`t1`.pos, p \+ \{p\d+:Int64\}\), `t0`.pos\)\) AS `ph0`/, 'gram "a b" at 0 and token c at 2, joined on (id, version, field)')
  const params = Object.values(compile(countSql(parseQuery('caseName:"a b c"', 'o'), 'o')).query_params)
  t.ok(params.includes('case_name~2') && params.includes('a b') && params.includes(2), 'a is common: the gram "a b" in case_name~2, c at offset 2')
  t.equal((ph.match(/ AS `ph0`/g) ?? []).length, 1, 'the phrase set is computed once')
  const rare = Object.values(compile(countSql(parseQuery('caseName:"smith jones"', 'o'), 'o')).query_params)
  t.notOk(rare.some((v) => typeof v === 'string' && v.endsWith('~2')), 'no common word: the tokens\' positions')
  t.ok(COMMON_WORDS.has('the') && COMMON_WORDS.has('f') && COMMON_WORDS.has('3d'), '"F.3d" and "the court" are read as grams')
  const px = count('caseName:"a b"~3')
  t.match(px.query, /WHERE arrayExists\(p -> arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t0`.pos\) AND arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t1`.pos\), arrayConcat\(`t0`.pos, `t1`.pos\)\)/, 'proximity: a window over the tokens\' positions, no grams')
  t.ok(Object.values(px.query_params).includes(4), 'window width: slop + k - 1')
  const pre = count('caseName:smi*')
  t.match(pre.query, /\(field = \{p1:String\} AND term >= \{p2:String\} AND startsWith\(term, \{p3:String\}\)\) AS `m0`/)
  t.match(pre.query, /PREWHERE \(field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\)\)\) ARRAY JOIN/)
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
  t.match(s.query, /^SELECT s.id AS id, s.score AS score FROM \(SELECT id, .*sumIf\(arrayElement\(\{p\d+:Array\(Float64\)\}, k\) \* tf \* .* bitCount\(groupBitOrIf\(bitShiftLeft\(toUInt64\(1\), k - 1\), rd AND k > 0\)\) \/ countIf\(rd AND k > 0\)\) AS score/, 'a document indexed twice: the sum divided by its multiplicity')
  t.match(s.query, /indexOf\(\{p\d+:Array\(String\)\}, concat\(field, ':', term\)\) AS k/, 'the scoring key, once per postings row')
  t.match(s.query, / ORDER BY score DESC, id DESC LIMIT \{p\d+:UInt64\} OFFSET \{p\d+:UInt64\}$/)
  const many = parseQuery('a1 a2 a3 a4 a5 a6', 'o')
  t.match(compile(searchSql(many, 'o', { stats, limit: 1 })).query, /arraySum\(x -> x.2, groupUniqArrayIf\(\(k, /, 'beyond 64 scoring keys: a set of (key, value)')
  const d = compile(searchSql(parseQuery('court_id:ca9', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'asc' }], final: false }))
  t.equal(d.query, 'SELECT d.id AS id, toFloat64(0) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE ifNull(d.`court_id` = {p1:String}, false) ORDER BY `date_filed` ASC NULLS LAST, id ASC')
  t.throws(() => searchSql(ast, 'o', { order: [{ field: 'caseName', dir: 'asc' }] }), /cannot order by caseName/)
})

t.test('statistics: per query, or df only with the corpus statistics cached by the caller', async (t) => {
  const st = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { database: 'db1' }))
  t.match(st.query, /^SELECT count\(\) AS n, map\(\{p1:String\}, avg\(`case_name_len`\)\) AS avgdl, \(SELECT CAST\(\(groupArray\(k\), groupArray\(c\)\), 'Map\(String, UInt64\)'\) FROM .*`db1`.`search_o_postings` .*\) AS df FROM `db1`.`search_o` FINAL$/)
  const cached = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { corpus: { n: 7, avgdl: { case_name: 2.5, text: 100 } } }))
  t.match(cached.query, /^SELECT \{p1:UInt64\} AS n, \{p2:Map\(String, Float64\)\} AS avgdl, \(SELECT .* FROM `search_o_postings` .*\) AS df$/)
  t.same([cached.query_params.p1, cached.query_params.p2], [7, { case_name: 2.5 }])
  const corpus = compile(corpusStatsSql('o'))
  t.match(corpus.query, /^SELECT count\(\) AS n, map\(\{p1:String\}, avg\(`case_name_len`\), .*\) AS avgdl FROM `search_o` FINAL$/)
  t.equal(Object.keys(corpus.query_params).length, SEARCH_TYPES.o.textFields.length)
  t.equal(compile(refreshSql('o', { database: 'db1' })).query, 'SYSTEM RELOAD DICTIONARY `db1`.`search_o_live`')
})

t.test('filters are ANDed with the query and do not score', async (t) => {
  const c = count('smith', 'o', { filters: parseQuery('court_id:ca9', 'o') })
  t.match(c.query, /WHERE id IN \(SELECT id FROM `search_o` AS d WHERE ifNull\(d.`court_id` = \{p\d+:String\}, false\)\)\) WHERE rd GROUP BY id\) AS s WHERE ifNull\(s.`l0`, 0\)$/)
  t.notMatch(c.query, /court_id.*court_id/, 'the filter is read once, on the documents')
})

t.test('index rows: the document columns and its postings per (field, term), grams after the fields', async (t) => {
  const doc = analyzeDocument('o', { id: 7, case_name: 'Smith v. Smith', citation: ['1 U.S. 2', '3 F.3d 4'], court_id: 'CA9', date_filed: '2020-01-02T00:00:00Z', panel_ids: [3, 4], cite_count: null })
  const [row] = toIndexRows('o', doc, 5)
  t.equal(row.id, 7)
  t.equal(row.version, 5)
  t.equal(row.is_deleted, 0)
  t.equal(row.case_name_len, 3)
  t.equal(row.citation_len, 8)
  t.equal(row.text_len, 0)
  t.equal(row.court_id, 'ca9')
  t.equal(row.date_filed, '2020-01-02')
  t.same(row.panel_ids, [3, 4])
  t.equal(row.cite_count, null)
  const T = SEARCH_TYPES.o.textFields.length
  const cn = 1 + SEARCH_TYPES.o.textFields.findIndex((f) => f.column === 'case_name')
  const ci = 1 + SEARCH_TYPES.o.textFields.findIndex((f) => f.column === 'citation')
  const postings = (row.p_field as number[]).map((f, i) => [f, (row.p_term as string[])[i], (row.p_pos as number[][])[i]])
  t.same(postings, [
    [cn, 'smith', [0, 2]], [cn, 'v', [1]], [T + cn, 'smith v', [0]], [T + cn, 'v smith', [1]],
    [ci, '1', [0]], [ci, 'u', [1]], [ci, 's', [2]], [ci, '2', [3]], [ci, '3', [5]], [ci, 'f', [6]], [ci, '3d', [7]], [ci, '4', [8]],
    [T + ci, '1 u', [0]], [T + ci, 'u s', [1]], [T + ci, 's 2', [2]], [T + ci, '3 f', [5]], [T + ci, 'f 3d', [6]], [T + ci, '3d 4', [7]],
  ], 'positions skip the gap between values; no gram spans it')
  t.same(Object.keys(row).sort(), [...indexColumns('o')].sort())
  const [gone] = toIndexRows('o', doc, 6, true)
  t.equal(gone.is_deleted, 1)
  t.same(gone.p_term, [], 'a deleted document has no postings')
})

t.test('DDL: documents, postings, a Null ingest table, the views between them and the dictionary of current versions', async (t) => {
  for (const type of ['o', 'r', 'd', 'rd', 'p', 'oa'] as const) {
    const ddl = searchTableDdl(type).map(compile)
    t.equal(ddl.length, 7)
    for (const q of ddl) t.same(q.query_params, {}, `${type}: DDL has no parameters`)
    const names = searchTables(type)
    t.match(ddl[0].query, new RegExp(`^CREATE TABLE IF NOT EXISTS \`${names.docs}\` .*ENGINE = ReplacingMergeTree\\(version, is_deleted\\) ORDER BY id$`, 's'))
    t.match(ddl[1].query, /ids Array\(Int64\), versions Array\(UInt64\), tfs Array\(UInt32\), dls Array\(UInt32\), poss Array\(Array\(UInt32\)\)\) ENGINE = MergeTree ORDER BY \(field, term\) SETTINGS index_granularity = 64, index_granularity_bytes = 262144$/)
    t.match(ddl[2].query, /`p_field` Array\(UInt8\), `p_term` Array\(String\), `p_pos` Array\(Array\(UInt32\)\)\) ENGINE = Null$/)
    t.match(ddl[4].query, /SELECT arrayElement\(\[.*'case_name~2'|ARRAY JOIN p_field AS fi, p_term AS term, p_pos AS pos WHERE is_deleted = 0 GROUP BY field, term$/)
    t.equal(ddl[5].query, `CREATE VIEW IF NOT EXISTS \`${names.live}_src\` AS SELECT id, version + 1 AS live FROM \`${names.docs}\` FINAL`)
    t.equal(ddl[6].query, `CREATE DICTIONARY IF NOT EXISTS \`${names.live}\` (id Int64, live UInt64) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE '${names.live}_src')) LAYOUT(HASHED()) LIFETIME(MIN 1 MAX 5)`,
      'the source is a table name, resolved in the dictionary\'s database')
  }
  t.match(compile(searchTableDdl('o', { database: 'db1' })[6]).query, /SOURCE\(CLICKHOUSE\(TABLE 'search_o_live_src' DB 'db1' INVALIDATE_QUERY 'SELECT max\(version\) FROM db1.search_o'\)\)/)
})
