import t, { type Test } from 'tap'
import { parseQuery, SearchSyntaxError, MESSAGES } from '../../../domain/search/parse.js'
import { show } from '../../../domain/search/ast.js'
import type { SearchType } from '../../../domain/search/fields.js'
import { LdsError } from '../../../core/errors.js'

const p = (q: string, type: SearchType = 'o') => show(parseQuery(q, type))

function fails(t: Test, q: string, message: string | RegExp, position: number, type: SearchType = 'o'): void {
  try {
    parseQuery(q, type)
    t.fail(`${JSON.stringify(q)} parsed`)
  } catch (err) {
    t.type(err, SearchSyntaxError, q)
    const e = err as SearchSyntaxError
    if (typeof message === 'string') t.equal(e.message, message, q)
    else t.match(e.message, message, q)
    t.equal(e.position, position, `${q}: position`)
  }
}

t.test('empty and blank queries match everything', async (t) => {
  t.equal(p(''), '*')
  t.equal(p('   \t\n'), '*')
  t.equal(p('§ --'), '*', 'a query whose terms analyze to nothing is empty')
  t.equal(p('()'), '*')
})

t.test('terms, the default AND, and the boolean operators', async (t) => {
  t.equal(p('a b'), '(a AND b)')
  t.equal(p('a AND b'), '(a AND b)')
  t.equal(p('a && b'), '(a AND b)')
  t.equal(p('a OR b'), '(a OR b)')
  t.equal(p('a || b'), '(a OR b)')
  t.equal(p('NOT a'), '-a')
  t.equal(p('!a'), '-a')
  t.equal(p('-a'), '-a')
  t.equal(p('+a +b'), '(a AND b)')
  t.equal(p('a -b'), '(a AND -b)')
  t.equal(p('a and b or not c'), '(a AND and AND b AND or AND not AND c)', 'lower-case words are terms')
  t.equal(p('NOT NOT a'), 'a')
})

t.test('precedence: NOT over AND over OR; parentheses group', async (t) => {
  t.equal(p('a OR b c'), '(a OR (b AND c))')
  t.equal(p('a b OR c'), '((a AND b) OR c)')
  t.equal(p('a AND NOT b OR c'), '((a AND -b) OR c)')
  t.equal(p('(a OR b) c'), '((a OR b) AND c)')
  t.equal(p('-(a b)'), '-(a AND b)')
  t.equal(p('((a))'), 'a')
  t.equal(p('a OR (b OR (c d))'), '(a OR b OR (c AND d))')
})

t.test('phrases, proximity and terms that analyze to several tokens', async (t) => {
  t.equal(p('"Due Process"'), '"due process"')
  t.equal(p('"a b"~5'), '"a b"~5')
  t.equal(p('"a b a"~2'), '"a b"~2', 'proximity terms are distinct')
  t.equal(p('"a a"~2'), 'a')
  t.equal(p('"single"'), 'single')
  t.equal(p('"single"~3'), 'single')
  t.equal(p('F.3d'), '"f 3d"')
  t.equal(p("O'Connor"), '"o connor"')
  t.equal(p('21-cv-1234'), '"21 cv 1234"')
  t.equal(p('"a \\" b"'), '"a b"', 'escaped quote inside a phrase')
  t.equal(p('-"a b"'), '-"a b"')
  t.equal(p('"a b"^2 c^3'), '("a b" AND c)', 'boosts are accepted and ignored')
})

t.test('fields: value, phrase, group, unknown names', async (t) => {
  t.equal(p('caseName:Smith'), 'caseName:smith')
  t.equal(p('caseName:"John Smith"'), 'caseName:"john smith"')
  t.equal(p('caseName:(a OR b) c'), '((caseName:a OR caseName:b) AND c)')
  t.equal(p('caseName:(a -b)'), '(caseName:a AND -caseName:b)')
  t.equal(p('caseName:(a judge:b)'), '(caseName:a AND judge:b)', 'an inner field wins')
  t.equal(p('court_id:CA9'), 'court_id:ca9', 'keywords are normalized, not split')
  t.equal(p('court_id:"ca9 x"'), 'court_id:"ca9 x"')
  t.equal(p('docket_id:123'), 'docket_id:123')
  t.equal(p('dateFiled:2020-02-03'), 'dateFiled:2020-02-03')
  t.equal(p('dateFiled:2020'), 'dateFiled:[2020-01-01 TO 2020-12-31]')
  t.equal(p('dateFiled:2024-02'), 'dateFiled:[2024-02-01 TO 2024-02-29]')
  t.equal(p('is_available:TRUE', 'rd'), 'is_available:true')
  t.equal(p('name:Ginsburg', 'p'), 'name:ginsburg')
  // Elasticsearch's query_string with a fixed field list asks the unknown field, which no document has
  t.equal(p('foo:bar'), '∅')
  t.equal(p('foo:bar baz'), '∅')
  t.equal(p('foo:bar OR baz'), 'baz')
  t.equal(p('NOT foo:bar'), '*')
  t.equal(p('CaseName:x'), '∅', 'field names are case-sensitive')
  t.equal(p('name:x', 'o'), '∅', 'a field of another type')
  t.equal(p('a\\:b'), '"a b"', 'an escaped colon is not a field')
  t.equal(p('12:30'), '"12 30"', 'a number is not a field name')
})

t.test('ranges', async (t) => {
  t.equal(p('dateFiled:[2020-01-01 TO 2021-12-31]'), 'dateFiled:[2020-01-01 TO 2021-12-31]')
  t.equal(p('dateFiled:{2020-01-01 TO 2021-12-31}'), 'dateFiled:[2020-01-02 TO 2021-12-30]')
  t.equal(p('dateFiled:[2020 TO 2021]'), 'dateFiled:[2020-01-01 TO 2021-12-31]', 'partial dates round outward')
  t.equal(p('dateFiled:{2020 TO 2021}'), 'dateFiled:[2021-01-01 TO 2020-12-31]', 'and exclusive ends round inward')
  t.equal(p('dateFiled:[* TO 2020-03]'), 'dateFiled:[* TO 2020-03-31]')
  t.equal(p('dateFiled:[2020-01-01 TO *]'), 'dateFiled:[2020-01-01 TO *]')
  t.equal(p('dateFiled:>2020-12-31'), 'dateFiled:[2021-01-01 TO *]')
  t.equal(p('dateFiled:<=2020'), 'dateFiled:[* TO 2020-12-31]')
  t.equal(p('citeCount:[5 TO 10}'), 'citeCount:[5 TO 9]')
  t.equal(p('citeCount:{5 TO *]'), 'citeCount:[6 TO *]')
  t.equal(p('citeCount:>=3 citeCount:<7'), '(citeCount:[3 TO *] AND citeCount:[* TO 6])')
  t.equal(p('court_id:[ca1 TO ca5}'), 'court_id:[ca1 TO ca5}', 'keyword ranges keep their ends')
  t.equal(p('foo:[1 TO 2]'), '∅')
  t.equal(p('[a TO b]'), '(a AND to AND b)', 'brackets without a field are separators')
})

t.test('wildcards: trailing, three characters at least', async (t) => {
  t.equal(p('negligen*'), 'negligen*')
  t.equal(p('caseName:Smi*'), 'caseName:smi*')
  t.equal(p('court_id:ca9*'), 'court_id:ca9*')
  t.equal(p('Mül*'), 'mul*')
  t.equal(p('a\\*'), 'a', 'an escaped star is a separator')
  fails(t, 'ne*', MESSAGES.wildcard, 2)
  fails(t, '*ing', MESSAGES.wildcard, 0)
  fails(t, 'ne*gligent', MESSAGES.wildcard, 2)
  fails(t, 'neg*ig*', MESSAGES.wildcard, 3)
  fails(t, 'te?t', MESSAGES.wildcard, 2)
  fails(t, 'x caseName:ab*', MESSAGES.wildcard, 13)
  fails(t, 'f.3d*', MESSAGES.wildcard, 4)
  fails(t, 'docket_id:123*', MESSAGES.wildcard, 13)
  fails(t, '*', MESSAGES.wildcard, 0)
})

t.test('the four catalogued errors, with their positions', async (t) => {
  fails(t, '(a OR b', MESSAGES.parentheses, 0)
  fails(t, 'a OR b)', MESSAGES.parentheses, 6)
  fails(t, '((a) OR b', MESSAGES.parentheses, 0)
  fails(t, 'a (b (c) d', MESSAGES.parentheses, 2)
  fails(t, 'caseName:(a b', MESSAGES.parentheses, 9)
  fails(t, '"a b', MESSAGES.quotes, 0)
  fails(t, 'x "a b" "c', MESSAGES.quotes, 8)
  fails(t, '("a b)', MESSAGES.quotes, 1)
  fails(t, 'a~2', MESSAGES.proximity, 1)
  fails(t, '"a b"~', MESSAGES.proximity, 5)
  fails(t, '"a b"~x', MESSAGES.proximity, 5)
  fails(t, '"a b"~3x', MESSAGES.proximity, 5)
  fails(t, 'a ~ b', MESSAGES.proximity, 2)
  fails(t, '~5', MESSAGES.proximity, 0)
  t.equal(p('"a ( b"'), '"a b"', 'parentheses inside quotes do not count')
  t.equal(p('a\\)'), 'a', 'an escaped parenthesis does not count')
})

t.test('other syntax errors name the position', async (t) => {
  fails(t, 'a AND', 'Unexpected end of query at position 5.', 5)
  fails(t, 'a OR OR b', 'Unexpected "OR" at position 5.', 5)
  fails(t, 'AND a', 'Unexpected "AND" at position 0.', 0)
  fails(t, 'a (OR b)', 'Unexpected "OR" at position 3.', 3)
  fails(t, 'a || && b', 'Unexpected "&&" at position 5.', 5)
  fails(t, 'caseName:', 'Expected a value after "caseName:" at position 9.', 9)
  fails(t, 'caseName: x', 'Expected a value after "caseName:" at position 9.', 9)
  fails(t, 'dateFiled:2020-13-01', 'Invalid date "2020-13-01" for field dateFiled at position 10.', 10)
  fails(t, 'dateFiled:2021-02-29', /Invalid date/, 10)
  fails(t, 'dateFiled:[2020 TO nope]', 'Invalid date "nope" for field dateFiled at position 19.', 19)
  fails(t, 'docket_id:abc', 'Invalid integer "abc" for field docket_id at position 10.', 10)
  fails(t, 'is_available:maybe', 'Invalid boolean "maybe" for field is_available at position 13.', 13, 'rd')
  fails(t, 'caseName:[a TO b]', 'Field caseName does not support ranges (at position 9).', 9)
  fails(t, 'dateFiled:[2020 TO]', 'Malformed range at position 10: expected [from TO to].', 10)
  fails(t, 'dateFiled:[2020 TO 2021', 'Unterminated range at position 10.', 10)
})

t.test('syntax errors are 400s with the message as detail', async (t) => {
  try { parseQuery('(a', 'o') } catch (err) {
    t.type(err, LdsError)
    t.equal((err as LdsError).status, 400)
    t.same((err as LdsError).toBody(), { detail: MESSAGES.parentheses })
  }
})

t.test('hostile input parses into values, never into structure', async (t) => {
  t.equal(p("caseName:\"x'; DROP TABLE search_o; --\""), 'caseName:"x drop table search o"')
  t.equal(p('court_id:"ca9\') OR 1=1 --"'), `court_id:${JSON.stringify("ca9') or 1=1 --")}`)
})
