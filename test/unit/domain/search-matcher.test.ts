import t from 'tap'
import { parseQuery } from '../../../domain/search/parse.js'
import { compileMatcher, phraseCount, windowCount, withinWindow } from '../../../domain/search/matcher.js'
import { analyzeDocument, type SearchDocument } from '../../../domain/search/document.js'
import { scoreDocument, idf, tfNorm } from '../../../domain/search/bm25.js'
import type { SearchType } from '../../../domain/search/fields.js'

const DOCS: SearchDocument[] = [
  { id: 1, case_name: 'Smith v. Jones', text: 'The court held that the duty of care ran to the buyer.', court_id: 'ca9', date_filed: '2020-05-01', cite_count: 3, citation: ['123 F.3d 456', '7 U.S. 1'] },
  { id: 2, case_name: 'Jones v. Smith', text: 'Negligence per se: the statute sets the duty; the buyer was careless.', court_id: 'scotus', date_filed: '1999-12-31', cite_count: 0 },
  { id: 3, case_name: 'In re Müller', text: 'Care of the estate. The duty ran nowhere.', court_id: 'CA9', date_filed: null, judge: 'Ginsburg' },
  { id: 4, case_name: 'United States v. Lopez', text: 'Commerce clause. Guns near schools.', court_id: 'scotus', date_filed: '1995-04-26', cite_count: 1000, panel_ids: [5, 7] },
]

function ids(q: string, type: SearchType = 'o', docs = DOCS): number[] {
  const m = compileMatcher(parseQuery(q, type), type)
  return docs.map((d) => analyzeDocument(type, d)).filter(m).map((d) => d.id)
}

t.test('terms, booleans, default fields', async (t) => {
  const table: [string, number[]][] = [
    ['', [1, 2, 3, 4]],
    ['duty', [1, 2, 3]],
    ['smith', [1, 2]],
    ['duty buyer', [1, 2]],
    ['duty AND NOT buyer', [3]],
    ['duty -buyer', [3]],
    ['commerce OR negligence', [2, 4]],
    ['NOT duty', [4]],
    ['-smith -jones', [3, 4]],
    ['ginsburg', [3]],
    ['muller', [3]],
    ['müller', [3]],
    ['absent', []],
    ['(smith OR lopez) AND -jones', [4]],
    ['duty OR foo:bar', [1, 2, 3]],
    ['duty foo:bar', []],
    ['NOT foo:bar', [1, 2, 3, 4]],
  ]
  for (const [q, want] of table) t.same(ids(q), want, q)
})

t.test('phrases and proximity', async (t) => {
  const table: [string, number[]][] = [
    ['"the duty"', [1, 2, 3]],
    ['"duty of care"', [1]],
    ['"care of"', [3]],
    ['"duty ran"', [3]],
    ['"ran duty"', []],
    ['"duty ran"~0', [3]],
    ['"ran duty"~0', [3]],
    ['"duty buyer"~0', []],
    ['"duty buyer"~1', [2]],
    ['"duty buyer"~4', [2]],
    ['"duty buyer"~5', [1, 2]],
    ['"buyer duty"~5', [1, 2]],
    ['"duty care buyer"~4', [1]],
    ['"duty care buyer"~3', []],
    ['"smith jones"~0', []],
    ['"smith jones"~1', [1, 2]],
    ['"smith jones"', []],
    ['"smith v jones"', [1]],
    ['caseName:"smith v jones"', [1]],
    ['F.3d', [1]],
    ['"456 7"', []],
    ['"456 7"~1', [1]], // proximity may reach across the one-position gap between values
    ['"f 3d 456"', [1]],
  ]
  for (const [q, want] of table) t.same(ids(q), want, q)
})

t.test('a phrase never spans two values of a multi-valued field', async (t) => {
  t.same(ids('citation:"456 7"'), [])
  t.same(ids('citation:"7 u s 1"'), [1])
})

t.test('fields, keywords, prefixes, ranges, absent values', async (t) => {
  const table: [string, number[]][] = [
    ['caseName:smith', [1, 2]],
    ['caseName:duty', []],
    ['court_id:ca9', [1, 3]],
    ['court_id:CA9', [1, 3]],
    ['court_id:sco*', [2, 4]],
    ['neglig*', [2]],
    ['caseName:unit*', [4]],
    ['car*', [1, 2, 3]],
    ['dateFiled:[1999-01-01 TO 2020-12-31]', [1, 2]],
    ['dateFiled:{1999-12-31 TO *]', [1]],
    ['dateFiled:[* TO 1999]', [2, 4]],
    ['dateFiled:1995', [4]],
    ['dateFiled:1995-04-26', [4]],
    ['-dateFiled:[* TO *]', [3]],
    ['NOT dateFiled:[1990 TO 2030]', [3], ],
    ['citeCount:[1 TO *]', [1, 4]],
    ['citeCount:0', [2]],
    ['citeCount:{0 TO 3]', [1]],
    ['panel_ids:7', [4]],
    ['panel_ids:[6 TO 8]', [4]],
    ['id:3', [3]],
    ['court_id:[ca1 TO ca9]', [1, 3]],
    ['court_id:[ca1 TO ca9}', []],
  ]
  for (const [q, want] of table) t.same(ids(q), want, q)
})

t.test('other search types use their own fields', async (t) => {
  const people: SearchDocument[] = [
    { id: 10, name: 'Ruth Bader Ginsburg', dob: '1933-03-15', dob_city: 'Brooklyn', political_affiliation: ['Democratic'], court_id: ['scotus', 'cadc'] },
    { id: 11, name: 'Antonin Scalia', dob: '1936-03-11', dob_city: 'Trenton', political_affiliation: ['Republican'], court_id: ['scotus', 'cadc'] },
  ]
  t.same(ids('name:ginsburg', 'p', people), [10])
  t.same(ids('political_affiliation:republican', 'p', people), [11])
  t.same(ids('court_id:cadc dob:[1935 TO *]', 'p', people), [11])
  t.same(ids('brooklyn OR trenton', 'p', people), [10, 11])
  const docs: SearchDocument[] = [
    { id: 20, case_name: 'A v. B', description: 'Motion to dismiss', entry_number: [1, 2], is_available: [false, true], document_number: ['1', '2'] },
    { id: 21, case_name: 'C v. D', description: 'Complaint', entry_number: [1], is_available: [false], document_number: ['1'] },
  ]
  t.same(ids('is_available:true', 'r', docs), [20])
  t.same(ids('entry_number:[2 TO 3]', 'r', docs), [20])
  t.same(ids('description:dismiss', 'r', docs), [20])
  t.same(ids('document_number:1', 'r', docs), [20, 21])
})

t.test('BM25 in memory: boosts, idf, length normalization', async (t) => {
  const docs = DOCS.map((d) => analyzeDocument('o', d))
  const stats = { n: 4, avgdl: { case_name: 3, text: 9 }, df: { 'case_name:smith': 2, 'text:duty': 3 } }
  const s1 = scoreDocument(parseQuery('smith', 'o'), 'o', docs[0], stats)
  t.equal(s1, 4 * idf(4, 2) * tfNorm(1, 3, 3), 'case name boost 4')
  t.equal(scoreDocument(parseQuery('-smith', 'o'), 'o', docs[0], stats), 0, 'negated leaves do not score')
  t.equal(scoreDocument(parseQuery('court_id:ca9', 'o'), 'o', docs[0], stats), 0, 'filters do not score')
  t.equal(scoreDocument(parseQuery('neglig*', 'o'), 'o', docs[1], stats), 0, 'prefixes filter, they do not score')
  const phraseStats = { n: 4, avgdl: { text: 9 }, df: { 'text:the': 3, 'text:buyer': 2 } }
  t.ok(scoreDocument(parseQuery('"the buyer"', 'o'), 'o', docs[0], phraseStats) > 0, 'a phrase scores where it matches')
  t.equal(scoreDocument(parseQuery('"buyer the"', 'o'), 'o', docs[0], phraseStats), 0, 'and only there')
  t.ok(idf(10, 25) > 0 && idf(10, 25) === idf(10, 10), 'a word counted in more documents than there are (indexed again) weighs as one in all: never negative')
  const inflated = { n: 4, avgdl: { case_name: 3, text: 9 }, df: { 'text:duty': 9 } }
  t.ok(scoreDocument(parseQuery('duty', 'o'), 'o', docs[2], inflated) > scoreDocument(parseQuery('duty', 'o'), 'o', docs[1], inflated), 'and scores keep their sense (the shorter text above), which a negative weight turned round')
  const text = docs[0].text.text
  t.equal(scoreDocument(parseQuery('"the buyer"', 'o'), 'o', docs[0], phraseStats), (idf(4, 3) + idf(4, 2)) * tfNorm(1, text.length, 9),
    'a phrase scores as one term: its frequency in the field, weighted by the sum of its words\' idf')
  const twice = analyzeDocument('o', { id: 9, text: 'the buyer paid; the buyer left; a buyer stayed' })
  t.equal(scoreDocument(parseQuery('"the buyer"', 'o'), 'o', twice, phraseStats), (idf(4, 3) + idf(4, 2)) * tfNorm(2, twice.text.text.length, 9),
    'occurring twice: frequency 2 (the third "buyer" is not part of the phrase)')
  t.ok(scoreDocument(parseQuery('"the buyer"', 'o'), 'o', twice, phraseStats) < scoreDocument(parseQuery('the buyer', 'o'), 'o', twice, phraseStats),
    'the words alone score their every occurrence')
  t.equal(scoreDocument(parseQuery('"buyer duty"~3', 'o'), 'o', docs[0], phraseStats) > 0, false, 'proximity: "duty" is 6 positions before "buyer", outside a window of 4')
  t.ok(scoreDocument(parseQuery('"buyer duty"~6', 'o'), 'o', docs[0], phraseStats) > 0, 'inside a window of 7')
  t.equal(scoreDocument(parseQuery('smith', 'o'), 'o', docs[0], stats), scoreDocument(parseQuery('smith OR court_id:x', 'o'), 'o', docs[0], stats))
  t.ok(scoreDocument(parseQuery('duty', 'o'), 'o', docs[2], stats) > scoreDocument(parseQuery('duty', 'o'), 'o', docs[1], stats), 'shorter text scores higher')
})

t.test('phrase and proximity frequencies', async (t) => {
  const f = analyzeDocument('o', { id: 1, text: 'a b c a b a b x c' }).text.text
  t.equal(phraseCount(f, ['a', 'b']), 3)
  t.equal(phraseCount(f, ['a', 'b', 'c']), 1)
  t.equal(phraseCount(f, ['b', 'a']), 1)
  t.equal(phraseCount(f, ['c', 'b']), 0)
  t.equal(phraseCount(f, ['zz']), 0, 'an absent word')
  // a is at 0, 3, 5 and c at 2, 8: the positions of either that start a window [p, p + width] holding both
  t.equal(windowCount(f, ['a', 'c'], 0), 0)
  t.equal(windowCount(f, ['a', 'c'], 1), 1, 'c at 2 (a at 3)')
  t.equal(windowCount(f, ['a', 'c'], 2), 2, 'a at 0 (c at 2), c at 2 (a at 3)')
  t.equal(windowCount(f, ['c', 'a'], 3), 3, 'a at 0 and 5, c at 2: the same in either order')
  for (const w of [0, 1, 2, 3, 5, 9]) for (const q of [['a', 'c'], ['x', 'a'], ['c', 'x', 'b']]) {
    t.equal(windowCount(f, q, w) > 0, withinWindow(f, q, w), `${q.join(' ')} within ${w}: counted exactly when it matches`)
  }
})

t.test('a compiled matcher is reusable and fast', async (t) => {
  const m = compileMatcher(parseQuery('(duty OR care*) AND "the buyer" -court_id:scotus dateFiled:[2000 TO *]', 'o'), 'o')
  const docs = DOCS.map((d) => analyzeDocument('o', d))
  const start = process.hrtime.bigint()
  let hits = 0
  for (let i = 0; i < 100_000; i++) if (m(docs[i & 3])) hits++
  const ns = Number(process.hrtime.bigint() - start) / 100_000
  t.equal(hits, 25_000)
  t.ok(ns < 20_000, `${ns.toFixed(0)} ns per call (about 2-3 µs on an idle core)`)
})
