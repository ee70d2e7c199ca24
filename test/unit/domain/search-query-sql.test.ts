import t from 'tap'
import { compile as compileSql, type Sql } from '../../../core/sql.js'

/** compiled, with the whitespace of multi-line templates folded */
const compile = (q: Sql) => { const c = compileSql(q); return { query: c.query.replace(/\s+/g, ' '), query_params: c.query_params } }
import { parseQuery } from '../../../domain/search/parse.js'
import { searchSql, searchPageSql, countSql, statsSql, corpusStatsSql, expansionSql } from '../../../domain/search/query-sql.js'
import { scoringPlan, weights, idf } from '../../../domain/search/bm25.js'
import { SEARCH_TYPES } from '../../../domain/search/fields.js'
import { COMMON_WORDS } from '../../../domain/search/common-grams.js'

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

const LIVE = "dictGetOrDefault('search_o_live_v2', 'live', id, toUInt64(0)) = version + 1"

t.test('text leaves: one aggregation over their postings, current versions by the dictionary, no documents table', async (t) => {
  const c = count('caseName:smith caseName:jones', 'o', { final: true })
  t.equal(c.query, `SELECT count() AS count FROM (SELECT id, max(\`m0\`) AS \`l0\`, max(\`m1\`) AS \`l1\`, toFloat64(0) AS score FROM (SELECT id, tf, dl, (\`m0\` OR \`m1\`) AS rd, \`m0\`, \`m1\` FROM (SELECT ids, version, tfs, dls, (field = {p1:String} AND term = {p2:String}) AS \`m0\`, (field = {p3:String} AND term = {p4:String}) AS \`m1\` FROM \`search_o_postings_v2\` WHERE (field = {p5:String} AND term = {p6:String}) OR (field = {p7:String} AND term = {p8:String})) ARRAY JOIN ids AS id, tfs AS tf, dls AS dl WHERE ${LIVE}) WHERE rd GROUP BY id) AS s WHERE (ifNull(s.\`l0\`, 0) AND ifNull(s.\`l1\`, 0))`)
  t.same(c.query_params, { p1: 'case_name', p2: 'smith', p3: 'case_name', p4: 'jones', p5: 'case_name', p6: 'smith', p7: 'case_name', p8: 'jones' })
  t.notMatch(c.query, /`search_o`/, 'text alone never reads the documents')
  const one = count('caseName:smith', 'o', { final: true })
  t.equal(one.query, `SELECT count() AS count FROM (SELECT DISTINCT id FROM (SELECT id, version FROM \`search_o_postings_v2\` ARRAY JOIN ids AS id WHERE ((field = {p1:String} AND term = {p2:String})) AND ${LIVE})) AS s WHERE 1`, 'one term, unscored: the distinct ids of its current postings, no aggregate')
  t.same(one.query_params, { p1: 'case_name', p2: 'smith' })
  t.match(count('smith OR caseName:smi*', 'o', { final: true }).query, /^SELECT count\(\) AS count FROM \(SELECT DISTINCT id FROM /, 'an OR of terms and prefixes: the same')
  t.notMatch(count('caseName:smith').query, /dictGet/, 'final: false reads every version')
  const lj = count('smith OR court_id:ca9', 'o', { final: true }).query
  t.match(lj, /^SELECT count\(\) AS count FROM \(SELECT id, `court_id` FROM `search_o` AS d WHERE dictGetOrDefault\('search_o_live_v2', 'live', id, toUInt64\(0\)\) >= 1 AND version >= dictGetOrDefault\('search_o_live_v2', 'row_version', id, toUInt64\(0\)\) AND is_deleted = 0 LIMIT 1 BY id\) AS d LEFT JOIN \(SELECT id, /, 'a document may match without postings: every current document (its row at the current version or a newer one), once')
  t.match(count('-smith', 'o', { final: true }).query, / LEFT JOIN .* WHERE NOT ifNull\(s.`l0`, 0\)$/)
  const ij = count('(smith OR court_id:ca9) jones', 'o', { final: true }).query
  t.match(ij, /^SELECT count\(\) AS count FROM \(SELECT id, `court_id` FROM `search_o` AS d WHERE id IN \(SELECT id FROM `search_o_postings_v2` ARRAY JOIN ids AS id WHERE .*\) AND dictGetOrDefault.* LIMIT 1 BY id\) AS d INNER JOIN /, 'text and document clauses mixed: documents pruned by the postings ids, joined')
  const semi = count('smith court_id:ca9', 'o', { final: true }).query
  t.match(semi, /^SELECT count\(\) AS count FROM \(SELECT DISTINCT id FROM \(SELECT id, version FROM `search_o_postings_v2` ARRAY JOIN ids AS id WHERE \(.*\) AND id IN \(SELECT id FROM `search_o` AS d WHERE ifNull\(d.`court_id` = \{p\d+:String\}, false\) AND dictGetOrDefault.*\) AND dictGetOrDefault.*\)\) AS s WHERE 1$/, 'one term AND clauses on documents: its postings restricted to the documents the clauses keep')
  const semi2 = count('smith jones court_id:ca9', 'o', { final: true }).query
  t.match(semi2, /^SELECT count\(\) AS count FROM \(SELECT id, .* ARRAY JOIN ids AS id, tfs AS tf, dls AS dl WHERE id IN \(SELECT id FROM `search_o` AS d WHERE ifNull\(d.`court_id` = \{p\d+:String\}, false\) AND dictGetOrDefault.*\) AND dictGetOrDefault.*\) WHERE rd GROUP BY id\) AS s WHERE \(ifNull\(s.`l0`, 0\) AND ifNull\(s.`l1`, 0\)\)$/, 'text AND clauses on documents: the postings restricted to the documents the clauses keep')
  const byDate = compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20, final: true })).query
  t.match(byDate, /^SELECT d.id AS id, toFloat64\(0\) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE d.id IN \(SELECT id FROM \(SELECT id, version FROM `search_o_postings_v2` ARRAY JOIN ids AS id WHERE \(\(field IN \{p\d+:Array\(String\)\} AND term = \{p\d+:String\}\)\) AND dictGetOrDefault\('search_o_live_v2', 'live', id, toUInt64\(0\)\) = version \+ 1\)\) AND dictGetOrDefault.* ORDER BY `date_filed` DESC NULLS LAST, id DESC LIMIT 1 BY id LIMIT \{p\d+:UInt64\}$/, 'ordered by a document column, one term: the current documents among the ids of its current postings (no aggregate), once each')
  const byDate2 = compile(searchSql(parseQuery('smith jones', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20, final: true })).query
  t.match(byDate2, /^SELECT d.id AS id, toFloat64\(0\) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE d.id IN \(SELECT s.id FROM \(SELECT id, .*\) AS s WHERE \(ifNull\(s.`l0`, 0\) AND ifNull\(s.`l1`, 0\)\)\) AND dictGetOrDefault.* ORDER BY `date_filed` DESC NULLS LAST, id DESC LIMIT 1 BY id LIMIT \{p\d+:UInt64\}$/, 'ordered by a document column: the current documents the text matches, once each')
  t.match(compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], database: 'db1', final: true })).query, /dictGetOrDefault\('db1.search_o_live_v2', 'live', id/)
  const paged = searchPageSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20, offset: 40, final: true })
  const prefix = compile(paged.sql)
  t.match(prefix.query, /^SELECT \*, count\(\) OVER \(\) AS prefix_rows FROM \(SELECT d.id AS id, .* ORDER BY `date_filed` DESC NULLS LAST, id DESC LIMIT \{p\d+:UInt64\}\) ORDER BY `date_filed` DESC NULLS LAST, id DESC LIMIT 1 BY id LIMIT \{p\d+:UInt64\} OFFSET \{p\d+:UInt64\}$/,
    'a date-ordered page: the first row per document among a sorted prefix')
  t.ok(Object.values(prefix.query_params).includes(4 * 60 + 64), 'the prefix: 4 × (offset + limit) + 64 rows')
  t.equal(compile(paged.fallback!.sql).query, compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20, offset: 40, final: true })).query,
    'the fallback is the exact form, which searchSql gives')
  const row = (n: number) => ({ id: n, prefix_rows: n })
  t.equal(paged.fallback!.needed(Array.from({ length: 20 }, (_, i) => row(304))), false, 'a full page: exact')
  t.equal(paged.fallback!.needed([row(12)]), false, 'a short page from a prefix that was not full: the matches ran out, exact')
  t.equal(paged.fallback!.needed([row(304)]), true, 'a short page from a full prefix: read again')
  t.equal(paged.fallback!.needed([]), true, 'no row: cannot tell, read again')
  t.equal(searchPageSql(parseQuery('smith', 'o'), 'o', { limit: 20, stats: { n: 1, avgdl: {}, df: {} } }).fallback, undefined, 'by score: one row per document already, no prefix')
  t.match(compile(searchSql(parseQuery('smith', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }, { field: 'score', dir: 'desc' }], stats: { n: 1, avgdl: {}, df: {} }, final: true })).query, /^SELECT d.id AS id, round\(s.score, 9\) AS score, d.`date_filed` AS `date_filed` FROM \(SELECT id, `date_filed` FROM `search_o` AS d WHERE .* INNER JOIN/, 'a document column and the score: joined')
})

t.test('phrases: grams for pairs with a common word, positions compared; proximity and prefixes', async (t) => {
  const ph = count('caseName:"a b c" jones', 'o', { final: true }).query
  t.match(ph, /UNION ALL SELECT id, toUInt8\(1\) AS `l0`, toUInt8\(0\) AS `l1`, score FROM \(SELECT DISTINCT `t0`.id AS id, toFloat64\(0\) AS score FROM/, 'the flag: a document where the phrase occurs')
  t.match(ph, /FROM \(SELECT replaceOne\(toString\(field\), '~2', ''\) AS f, id, version, pos FROM `search_o_postings_v2` ARRAY JOIN ids AS id, poss AS pos WHERE field = \{p\d+:String\} AND term = \{p\d+:String\} AND dictGetOrDefault.*\) AS `t0` INNER JOIN \(SELECT toString\(field\) AS f, id, version, pos FROM .* AS `t1` ON `t1`.id = `t0`.id AND `t1`.version = `t0`.version AND `t1`.f = `t0`.f WHERE arrayExists\(p -> has\(`t1`.pos, p \+ \{p\d+:Int64\}\), `t0`.pos\)\)/, 'gram "a b" at 0 and token c at 2, joined on (id, version, field)')
  t.match(ph, /GROUP BY id UNION ALL/, 'the term\'s postings aggregated apart from the phrase')
  t.match(ph, /\) GROUP BY id\) AS s WHERE/, 'the two put together by id')
  const params = Object.values(compile(countSql(parseQuery('caseName:"a b c"', 'o'), 'o')).query_params)
  t.ok(params.includes('case_name~2') && params.includes('a b') && params.includes(2), 'a is common: the gram "a b" in case_name~2, c at offset 2')
  t.equal((ph.match(/ AS `t0`/g) ?? []).length, 1, 'the phrase\'s occurrences are computed once')
  t.notMatch(ph, /term IN/, 'the phrase\'s words are not read beside its occurrences')
  const scored = compile(searchSql(parseQuery('"the court"', 'o'), 'o', { stats: { n: 10, avgdl: { text: 100 }, df: { 'text:the': 10, 'text:court': 3 } }, limit: 20, final: true }))
  t.match(scored.query, /^SELECT s.id AS id, round\(s.score, 9\) AS score FROM \(SELECT id, toUInt8\(1\) AS `l0`, score FROM \(SELECT id, sum\(arrayElement\(\{p\d+:Array\(Float64\)\}, fk\) \* fq \* .*\) \* bitCount\(groupBitOr\(bitShiftLeft\(toUInt64\(1\), fk\)\)\) \/ count\(\) AS score FROM \( SELECT `t0`.id AS id, indexOf\(\{p\d+:Array\(String\)\}, `t0`.f\) AS fk, `t0`.dl AS fq_dl, `t0`.tf AS fq FROM \(SELECT replaceOne\(toString\(field\), '~2', ''\) AS f, id, version, tf, dl FROM `search_o_postings_v2` ARRAY JOIN ids AS id, tfs AS tf, dls AS dl WHERE .*\) AS `t0`\) WHERE fq > 0 GROUP BY id\)\) AS s/,
    'a scored phrase alone: its frequency per (document, field) from its occurrences (one gram: its tf), no postings of its words; a batch given twice counts once')
  t.ok(Object.values(scored.query_params).some((v) => Array.isArray(v) && v.includes('text~2')) && Object.values(scored.query_params).includes('the court'), '"the court" is one gram')
  t.notMatch(ph, /PREWHERE/, 'key ranges in WHERE: the server moves them to PREWHERE itself, faster than an explicit PREWHERE beside ARRAY JOIN')
  t.match(count('caseName:"a b c"', 'o', { final: true }).query, /^SELECT count\(\) AS count FROM \(SELECT DISTINCT id FROM \(SELECT `t0`.id AS id FROM .* INNER JOIN .*\)\) AS s WHERE 1$/, 'a phrase alone, unscored: the distinct ids of its set, no aggregate')
  t.match(compile(searchSql(parseQuery('caseName:"a b c"', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], final: true })).query, /^SELECT d.id AS id, toFloat64\(0\) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE d.id IN \(SELECT `t0`.id AS id FROM /, 'a phrase ordered by a document column: the documents in its set')
  const rare = Object.values(compile(countSql(parseQuery('caseName:"smith jones"', 'o'), 'o')).query_params)
  t.notOk(rare.some((v) => typeof v === 'string' && v.endsWith('~2')), 'no common word: the tokens\' positions')
  t.ok(COMMON_WORDS.has('the') && COMMON_WORDS.has('f') && COMMON_WORDS.has('3d'), '"F.3d" and "the court" are read as grams')
  const px = count('caseName:"a b"~3')
  t.match(px.query, /WHERE arrayExists\(p -> arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t0`.pos\) AND arrayExists\(x -> x >= p AND x <= p \+ \{p\d+:Int64\}, `t1`.pos\), arrayConcat\(`t0`.pos, `t1`.pos\)\)/, 'proximity: a window over the tokens\' positions, no grams')
  t.ok(Object.values(px.query_params).includes(4), 'window width: slop + k - 1')
  const pre = count('caseName:smi* jones')
  t.match(pre.query, /\(field = \{p1:String\} AND term >= \{p2:String\} AND startsWith\(term, \{p3:String\}\)\) AS `m0`/)
  t.match(pre.query, /WHERE \(field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\)\) OR \(field IN \{p\d:Array\(String\)\} AND term = \{p\d+:String\}\)\) ARRAY JOIN/)
  t.match(count('caseName:smi*').query, /WHERE \(\(field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\)\)\)\)\) AS s WHERE 1$/, 'a prefix alone: its key range, distinct ids')
  const dflt = count('duty')
  t.same(dflt.query_params.p1, SEARCH_TYPES.o.defaults.map((f) => f.column), 'unfielded terms read every default field')
})

t.test('prefix expansion listing for callers that limit breadth', async (t) => {
  const e = compile(expansionSql(parseQuery('caseName:smi*', 'o'), 'o', { maxExpansions: 10 })!)
  t.match(e.query, /SELECT DISTINCT term FROM `search_o_postings_v2` WHERE field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\) LIMIT \{p\d:UInt64\}/)
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
  t.match(s.query, /^SELECT s.id AS id, round\(s.score, 9\) AS score FROM \(SELECT id, .*sumIf\(arrayElement\(\{p\d+:Array\(Float64\)\}, k\) \* tf \* .* bitCount\(groupBitOrIf\(bitShiftLeft\(toUInt64\(1\), greatest\(k, 1\) - 1\), rd AND k > 0\)\) \/ countIf\(rd AND k > 0\)\) AS score/, 'a document indexed twice: the sum divided by its multiplicity')
  t.match(s.query, /indexOf\(\{p\d+:Array\(String\)\}, concat\(field, ':', term\)\) AS k/, 'the scoring key, once per postings row')
  t.match(s.query, / ORDER BY score DESC, id DESC LIMIT \{p\d+:UInt64\} OFFSET \{p\d+:UInt64\}$/)
  const next = compile(searchSql(ast, 'o', { stats, limit: 20, afterScore: { score: 1.5, id: 7 } }))
  t.match(next.query, /WHERE .* AND \(round\(s.score, 9\) < \{p\d+:Float64\} OR \(round\(s.score, 9\) = \{p\d+:Float64\} AND s.id < \{p\d+:Int64\}\)\) ORDER BY score DESC, id DESC/, 'the next page by score: after (score, id), rounded scores')
  t.throws(() => searchSql(ast, 'o', { stats, order: [{ field: 'dateFiled', dir: 'desc' }], afterScore: { score: 1, id: 1 } }), /order by score alone/)
  const many = parseQuery('a1 a2 a3 a4 a5 a6', 'o')
  t.match(compile(searchSql(many, 'o', { stats, limit: 1 })).query, /arraySum\(x -> x.2, groupUniqArrayIf\(\(k, /, 'beyond 64 scoring keys: a set of (key, value)')
  const d = compile(searchSql(parseQuery('court_id:ca9', 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'asc' }], final: false }))
  t.equal(d.query, 'SELECT d.id AS id, toFloat64(0) AS score, d.`date_filed` AS `date_filed` FROM `search_o` AS d WHERE ifNull(d.`court_id` = {p1:String}, false) ORDER BY `date_filed` ASC NULLS LAST, id ASC')
  t.throws(() => searchSql(ast, 'o', { order: [{ field: 'caseName', dir: 'asc' }] }), /cannot order by caseName/)
})

t.test('statistics: per query, or df only with the corpus statistics cached by the caller', async (t) => {
  const st = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { database: 'db1' }))
  t.match(st.query, /^SELECT count\(\) AS n, map\(\{p1:String\}, avg\(`case_name_len`\)\) AS avgdl, \(SELECT CAST\(\(groupArray\(k\), groupArray\(c\)\), 'Map\(String, UInt64\)'\) FROM .*`db1`.`search_o_postings_v2` .*\) AS df FROM `db1`.`search_o` FINAL$/)
  const cached = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { corpus: { n: 7, avgdl: { case_name: 2.5, text: 100 } } }))
  // the frequencies are the statement's own aggregate, not a scalar subquery (planned and run before the statement)
  t.match(cached.query, /^SELECT \{p1:UInt64\} AS n, \{p2:Map\(String, Float64\)\} AS avgdl, CAST\(\(groupArray\(k\), groupArray\(c\)\), 'Map\(String, UInt64\)'\) AS df FROM \(SELECT .* FROM `search_o_postings_v2` .* GROUP BY k\)$/)
  const none = compile(statsSql(parseQuery('court_id:ca9', 'o'), 'o', { corpus: { n: 7, avgdl: {} } }))
  t.match(none.query, /^SELECT \{p1:UInt64\} AS n, \{p2:Map\(String, Float64\)\} AS avgdl, CAST\(map\(\), 'Map\(String, UInt64\)'\) AS df$/, 'a query without scoring terms reads nothing')
  t.same([cached.query_params.p1, cached.query_params.p2], [7, { case_name: 2.5 }])
  const corpus = compile(corpusStatsSql('o'))
  t.match(corpus.query, /^SELECT count\(\) AS n, map\(\{p1:String\}, avg\(`case_name_len`\), .*\) AS avgdl FROM `search_o` FINAL$/)
  t.equal(Object.keys(corpus.query_params).length, SEARCH_TYPES.o.textFields.length)
})

t.test('filters are ANDed with the query and do not score', async (t) => {
  const c = count('smith jones', 'o', { filters: parseQuery('court_id:ca9', 'o') })
  t.match(c.query, /WHERE id IN \(SELECT id FROM `search_o` AS d WHERE ifNull\(d.`court_id` = \{p\d+:String\}, false\)\)\) WHERE rd GROUP BY id\) AS s WHERE \(ifNull\(s.`l0`, 0\) AND ifNull\(s.`l1`, 0\)\)$/)
  t.notMatch(c.query, /court_id.*court_id/, 'the filter is read once, on the documents')
})
