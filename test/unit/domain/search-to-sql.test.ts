import t from 'tap'
import { compile } from '../../../core/sql.js'
import { parseQuery } from '../../../domain/search/parse.js'
import { analyzeDocument } from '../../../domain/search/document.js'
import { searchSql, countSql, statsSql, expansionSql, readExpansions, toIndexRows, indexColumns, searchTableDdl, termsTableDdl, expansionKey } from '../../../domain/search/to-sql.js'
import { scoringPlan } from '../../../domain/search/bm25.js'
import { SEARCH_TYPES } from '../../../domain/search/fields.js'

const where = (q: string, type: 'o' | 'rd' | 'p' = 'o', opts = {}) => {
  const c = compile(countSql(parseQuery(q, type), type, { final: false, ...opts }))
  return { sql: c.query.replace(/^SELECT count\(\) AS count FROM `search_\w+` WHERE /, ''), params: Object.values(c.query_params) }
}

t.test('every user value is a bound parameter', async (t) => {
  const hostile = "x') OR 1=1; DROP TABLE search_o; --"
  const c = compile(searchSql(parseQuery(`caseName:"${hostile.replace(/"/g, '')}" court_id:"${hostile}"`, 'o'), 'o', { order: [{ field: 'dateFiled', dir: 'desc' }], limit: 20 }))
  t.notMatch(c.query, /DROP|1=1/)
  t.ok(Object.values(c.query_params).includes("x') or 1=1; drop table search_o; --"), 'the keyword value travels as a parameter')
  t.match(c.query, /`court_id` = \{p\d+:String\}/)
})

t.test('leaves compile to the index-friendly functions', async (t) => {
  t.same(where('caseName:smith'), { sql: 'has(`case_name`, {p1:String})', params: ['smith'] })
  t.same(where('caseName:"a b"'), { sql: '(hasAllTokens(`case_name`, {p1:Array(String)}) AND hasSubstr(`case_name`, {p2:Array(String)}))', params: [['a', 'b'], ['a', 'b']] })
  t.match(where('caseName:"a b"~3').sql, /^\(hasAllTokens\(`case_name`, \{p1:Array\(String\)\}\) AND arrayExists\(\(x, p\) -> has\(\{p2:Array\(String\)\}, x\) AND hasAll\(arraySlice\(`case_name`, p, \{p3:Int64\}\), \{p4:Array\(String\)\}\), `case_name`, arrayEnumerate\(`case_name`\)\)\)$/)
  t.equal(where('caseName:"a b"~3').params[2], 5, 'window of slop + k positions')
  t.same(where('court_id:ca9'), { sql: 'ifNull(`court_id` = {p1:String}, false)', params: ['ca9'] })
  t.same(where('dateFiled:[2020 TO *]'), { sql: 'ifNull(`date_filed` >= {p1:Date32}, false)', params: ['2020-01-01'] })
  t.same(where('panel_ids:[1 TO 3]'), { sql: 'arrayExists(x -> x >= {p1:Int64} AND x <= {p2:Int64}, `panel_ids`)', params: [1, 3] })
  t.same(where('NOT court_id:ca9'), { sql: 'NOT ifNull(`court_id` = {p1:String}, false)', params: ['ca9'] })
  t.same(where('foo:bar'), { sql: '0', params: [] })
  t.same(where(''), { sql: '1', params: [] })
  t.same(where('court_id:sco*'), { sql: 'ifNull(startsWith(`court_id`, {p1:String}), false)', params: ['sco'] })
  t.same(where('is_available:true', 'rd'), { sql: 'ifNull(`is_available` = {p1:Bool}, false)', params: [true] })
})

t.test('unfielded terms search every default text field', async (t) => {
  const w = where('duty')
  t.equal(w.params.length, SEARCH_TYPES.o.defaults.length)
  t.match(w.sql, /^\(has\(`case_name`, \{p1:String\}\) OR has\(`case_name_full`/)
})

t.test('prefixes: expansions from the vocabulary, exact scan beyond the limit', async (t) => {
  const ast = parseQuery('caseName:smi*', 'o')
  t.same(where('caseName:smi*'), { sql: 'arrayExists(x -> startsWith(x, {p1:String}), `case_name`)', params: ['smi'] })
  const expansions = readExpansions([{ key: expansionKey('case_name', 'smi'), terms: ['smith', 'smithe'] }])
  t.same(where('caseName:smi*', 'o', { expansions }), { sql: 'hasAnyTokens(`case_name`, {p1:Array(String)})', params: [['smith', 'smithe']] })
  t.same(where('caseName:smi*', 'o', { expansions, maxExpansions: 1 }).params, ['smi'], 'too many: exact scan')
  t.same(where('caseName:smi*', 'o', { expansions: readExpansions([{ key: expansionKey('case_name', 'smi'), terms: [] }]) }).sql, '0')
  const e = compile(expansionSql(ast, 'o', { maxExpansions: 10 })!)
  t.match(e.query, /FROM `search_o_terms` WHERE field = \{p\d:String\} AND term >= \{p\d:String\} AND startsWith\(term, \{p\d:String\}\)/)
  t.equal(expansionSql(parseQuery('smith', 'o'), 'o'), null)
})

t.test('ordering: BM25 needs stats, ties broken by id, FINAL by default', async (t) => {
  const ast = parseQuery('smith -jones', 'o')
  t.throws(() => searchSql(ast, 'o'), /needs stats/)
  const plan = scoringPlan(ast, SEARCH_TYPES.o)
  t.same(plan.dfKeys.map((k) => k.key), SEARCH_TYPES.o.defaults.map((f) => `${f.column}:smith`), 'negated terms do not score')
  const stats = { n: 10, avgdl: {}, df: {} }
  const s = compile(searchSql(ast, 'o', { stats, limit: 20, offset: 40 }))
  t.match(s.query, /^WITH \(tf, dl, avgdl\) -> .* AS bm25tf SELECT id, greatest\(/)
  t.match(s.query, /FROM `search_o` FINAL WHERE .* ORDER BY score DESC, id DESC LIMIT \{p\d+:UInt64\} OFFSET \{p\d+:UInt64\}$/)
  const d = compile(searchSql(ast, 'o', { order: [{ field: 'dateFiled', dir: 'asc' }], final: false }))
  t.match(d.query, /^SELECT id, toFloat64\(0\) AS score, `date_filed` FROM `search_o` WHERE .* ORDER BY `date_filed` ASC NULLS LAST, id ASC$/)
  t.throws(() => searchSql(ast, 'o', { order: [{ field: 'caseName', dir: 'asc' }] }), /cannot order by caseName/)
  const st = compile(statsSql(parseQuery('caseName:smith', 'o'), 'o', { database: 'db1' }))
  t.equal(st.query, 'SELECT count() AS n, map({p1:String}, avg(`case_name_len`)) AS avgdl, map({p2:String}, (SELECT count() FROM `db1`.`search_o` FINAL WHERE has(`case_name`, {p3:String}))) AS df FROM `db1`.`search_o` FINAL')
  t.same(st.query_params, { p1: 'case_name', p2: 'case_name:smith', p3: 'smith' })
})

t.test('filters are ANDed with the query', async (t) => {
  const c = compile(countSql(parseQuery('smith', 'o'), 'o', { filters: parseQuery('court_id:ca9', 'o'), final: false }))
  t.match(c.query, /WHERE \(\(has\(`case_name`.*\) AND ifNull\(`court_id` = \{p\d+:String\}, false\)\)$/)
})

t.test('index rows: one per document, tokens space-joined, lengths, values', async (t) => {
  const doc = analyzeDocument('o', { id: 7, case_name: 'Smith v. Jones', citation: ['1 U.S. 2', '3 F.3d 4'], court_id: 'CA9', date_filed: '2020-01-02T00:00:00Z', panel_ids: [3, 4], cite_count: null })
  const [row] = toIndexRows('o', doc, 5)
  t.equal(row.id, 7)
  t.equal(row.version, 5)
  t.equal(row.is_deleted, 0)
  t.equal(row.case_name_src, 'smith v jones')
  t.equal(row.case_name_len, 3)
  t.equal(row.citation_src, '1 u s 2  3 f 3d 4', 'values separated by an empty token')
  t.equal(row.citation_len, 8)
  t.equal(row.text_src, '')
  t.equal(row.court_id, 'ca9')
  t.equal(row.date_filed, '2020-01-02')
  t.same(row.panel_ids, [3, 4])
  t.equal(row.cite_count, null)
  t.same(Object.keys(row).sort(), [...indexColumns('o')].sort())
})

t.test('DDL: one table per type, a text index per text field, a vocabulary', async (t) => {
  for (const type of ['o', 'r', 'd', 'rd', 'p', 'oa'] as const) {
    const ddl = compile(searchTableDdl(type))
    t.same(ddl.query_params, {}, `${type}: DDL has no parameters`)
    t.equal((ddl.query.match(/TYPE text\(tokenizer = array\)/g) ?? []).length, SEARCH_TYPES[type].textFields.length)
    for (const q of termsTableDdl(type)) t.same(compile(q).query_params, {})
  }
  t.match(compile(searchTableDdl('o')).query, /ENGINE = ReplacingMergeTree\(version, is_deleted\) ORDER BY id$/)
})
