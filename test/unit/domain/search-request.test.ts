/**
 * Search requests as users write them → the AST both the search and the percolator evaluate;
 * highlighting and snippets; the percolator's query index agrees with trying every query.
 */
import t from 'tap'
import { searchRequest, requestAst, compileMatcher, analyzeDocument, highlighter, createQueryIndex, SearchRequestError, show, type SearchType } from '../../../domain/search/index.js'
import { createRng } from '../../../connectors/sample/random.js'

const req = (q: string) => searchRequest(new URLSearchParams(q))
/** The field errors a request is refused with, or null. */
const refusal = (q: string) => { try { req(q); return null } catch (e) { return (e as SearchRequestError).fields ?? null } }

t.test('parameters become filters on the right fields', async (t) => {
  const r = req('q=miranda&court=scotus%20ca1&filed_after=1960-01-01&case_name=arizona&stat_Published=on')
  t.equal(r.type, 'o')
  t.same(r.order, [{ field: 'score', dir: 'desc' }])
  const text = show(requestAst(r))
  t.match(text, /caseName:arizona/)
  t.match(text, /court_id/)
  t.match(text, /dateFiled/)
  t.match(text, /status/)
  t.same(req('type=p').order, [{ field: 'name_reverse', dir: 'asc' }], 'judges are listed by name')
  t.same(req('type=oa').orderBy, 'dateArgued desc')
  t.equal(requestAst(req('type=o&order_by=dateFiled%20desc')).kind, 'all', 'no q and no filter: everything')
  t.equal(requestAst(req('type=o&nature_of_suit=fraud')).kind !== 'all', true)
  t.same(requestAst(req('type=p&court=scotus&party_name=doe')), { kind: 'value', field: 'court_id', value: 'scotus' }, 'filters of other types are ignored')
})

t.test('bad values are 400s keyed by parameter', async (t) => {
  t.match(refusal('type=zz'), { type: [/valid choice/] })
  t.ok((() => { try { req('type=zz') } catch (e) { return e instanceof SearchRequestError } })(), 'a SearchRequestError (a 400)')
  t.match(refusal('order_by=bogus'), { order_by: [/valid choice/] })
  t.match(refusal('type=r&order_by=citeCount%20desc'), { order_by: [/valid choice/] }, 'an ordering of another type')
  t.match(refusal('filed_after=13/45/2020'), { filed_after: ['Enter a valid date.'] })
  t.match(refusal('cited_gt=many'), { cited_gt: [/whole number/] })
  t.same(req('filed_after=03/04/2020').filters, req('filed_after=2020-03-04').filters, 'US dates too')
})

t.test('highlighting and snippets', async (t) => {
  const h = highlighter(req('q=miranda%20-smith%20warn*').query)
  t.equal(h.mark('Miranda warned Smith'), '<mark>Miranda</mark> <mark>warned</mark> Smith', 'negated words are not marked')
  const long = `${'word '.repeat(200)}Miranda ${'tail '.repeat(200)}`
  t.equal(h.snippet(long, false), long.slice(0, 500), 'without highlighting: the first 500 characters')
  const s = h.snippet(long, true)
  t.match(s, /<mark>Miranda<\/mark>/, 'with highlighting: a window around the match')
  t.ok(s.replace(/<\/?mark>/g, '').length <= 500)
  t.notOk(h.matches('nothing here'))
})

t.test('the query index finds exactly what trying every query finds', async (t) => {
  const words = ['privacy', 'search', 'seizure', 'warrant', 'speech', 'religion', 'contract', 'tort', 'fraud', 'appeal', 'habeas', 'custody']
  const rng = createRng(7)
  const rand = (n: number) => rng.int(0, n - 1)
  const pick = () => words[rand(words.length)]
  const shapes = [
    () => `q=${pick()}`, () => `q=${pick()}%20AND%20${pick()}`, () => `q=${pick()}%20OR%20${pick()}`, () => `q=%22${pick()}%20${pick()}%22`,
    () => `q=${pick()}%20-${pick()}`, () => `q=-${pick()}`, () => `court=${rand(2) ? 'scotus' : 'ca1'}`, () => `q=${pick().slice(0, 4)}*`,
    // fielded anchors (tried only when that field holds the word), prefixes among ORs, fielded prefixes
    () => `q=caseName:${pick()}`, () => `q=caseName:%22${pick()}%20${pick()}%22`, () => `q=${pick()}%20OR%20${pick().slice(0, 3)}*`,
    () => `q=caseName:${pick().slice(0, 3)}*`, () => `q=caseName:${pick()}%20AND%20${pick()}`, () => `q=${pick()}&court=scotus`,
    () => `q=${pick()}&filed_after=1970-01-01`, () => `q=%22${pick()}%20${pick()}%22~3`, () => `q=NOT%20(${pick()}%20OR%20${pick()})`, () => 'q=',
  ]
  const index = createQueryIndex()
  const all: { id: number; type: SearchType; ast: ReturnType<typeof requestAst>; matches: ReturnType<typeof compileMatcher> }[] = []
  for (let id = 1; id <= 600; id++) {
    const ast = requestAst(req(shapes[rand(shapes.length)]()))
    const q = { id, type: 'o' as const, ast, matches: compileMatcher(ast, 'o') }
    all.push(q)
    index.add(q)
  }
  for (let i = 0; i < 150; i++) index.remove(1 + rand(600))
  for (let i = 0; i < 30; i++) { const q = all[rand(600)]; index.add(q) } // some come back, none twice
  const live = all.filter((q) => index.get(q.id))
  const docs = Array.from({ length: 600 }, (_, d) => analyzeDocument('o', { id: d, case_name: `${pick()} v. ${pick()}`, text: Array.from({ length: 6 }, pick).join(' '), court_id: rand(2) ? 'scotus' : 'ca1', date_filed: `19${50 + rand(50)}-01-01` }))
  const batched = index.matchBatch('o', docs) // 600 documents: a full batch of 512 and one of 88
  let differ = 0
  docs.forEach((doc, d) => {
    const every = live.filter((q) => q.matches(doc)).map((q) => q.id)
    if (d < 200) t.same(index.match('o', doc).map((q) => q.id).sort((a, b) => a - b), every, `document ${d}`)
    const viaBatch = batched[d].map((q) => q.id).sort((a, b) => a - b)
    if (JSON.stringify(viaBatch) !== JSON.stringify(every)) { differ++; t.same(viaBatch, every, `document ${d}, in a batch`) }
  })
  t.equal(differ, 0, 'a batch finds for each document what trying every query finds')
  t.ok(new Set(batched.map((x) => x.length)).size > 5, 'documents match different numbers of queries')
  t.equal(index.size, live.length)
})

t.test('batches of every size, one after another, find what trying every query finds', async (t) => {
  // Batch widths change from call to call (1 word of bits, 2, 16, …): nothing one leaves behind may show in the next.
  const words = Array.from({ length: 40 }, (_, i) => `word${i}`)
  const rng = createRng(11)
  const rand = (n: number) => rng.int(0, n - 1)
  const pick = () => words[rand(words.length)]
  const shapes = [
    () => `q=${pick()}`, () => `q=${pick()}%20AND%20${pick()}`, () => `q=${pick()}%20OR%20${pick()}`, () => `q=%22${pick()}%20${pick()}%22`,
    () => `q=%22${pick()}%20${pick()}%20${pick()}%22`, () => `q=${pick()}%20${pick()}%20-${pick()}`, () => `q=-${pick()}`, () => `q=${pick().slice(0, 5)}*`,
    () => `q=caseName:${pick()}`, () => `q=caseName:%22${pick()}%20${pick()}%22`, () => `q=caseName:${pick().slice(0, 5)}*`, () => `q=${pick()}&court=scotus`,
    () => `q=%22${pick()}%20${pick()}%22~2`, () => `q=${pick()}&filed_after=1980-01-01`, () => `q=NOT%20(${pick()}%20OR%20${pick()})`, () => 'q=', () => 'court=ca1',
  ]
  const index = createQueryIndex()
  const all: { id: number; type: SearchType; ast: ReturnType<typeof requestAst>; matches: ReturnType<typeof compileMatcher> }[] = []
  for (let id = 1; id <= 400; id++) {
    const ast = requestAst(req(shapes[rand(shapes.length)]()))
    const q = { id, type: 'o' as const, ast, matches: compileMatcher(ast, 'o') }
    all.push(q)
    index.add(q)
  }
  let next = 0
  const doc = () => analyzeDocument('o', {
    id: next++, case_name: `${pick()} v. ${pick()}`, text: Array.from({ length: 1 + rand(30) }, pick).join(' '),
    court_id: rand(2) ? 'scotus' : 'ca1', date_filed: `19${50 + rand(50)}-01-01`,
  })
  let differ = 0
  for (const size of [1, 31, 32, 33, 500, 513, 1, 100, 2]) {
    const docs = Array.from({ length: size }, doc)
    const batched = index.matchBatch('o', docs)
    t.equal(batched.length, size, `a batch of ${size}: one answer per document`)
    docs.forEach((d, i) => {
      const every = all.filter((q) => q.matches(d)).map((q) => q.id)
      const got = batched[i].map((q) => q.id).sort((a, b) => a - b)
      if (JSON.stringify(got) !== JSON.stringify(every)) { differ++; t.same(got, every, `a batch of ${size}, document ${i}`) }
    })
  }
  t.equal(differ, 0, 'every document of every batch')
})

t.test('a word no stored query uses is skipped, yet a query added later that uses it matches', async (t) => {
  const index = createQueryIndex()
  const stored = (id: number, q: string) => { const ast = requestAst(req(q)); return { id, type: 'o' as const, ast, matches: compileMatcher(ast, 'o') } }
  const doc = analyzeDocument('o', { id: 1, case_name: 'Smith v. Jones', text: 'the zebra crossed the road' })
  index.add(stored(1, 'q=giraffe'))
  t.same(index.match('o', doc), [], 'no query reads zebra')
  index.add(stored(2, 'q=zebra'))
  index.add(stored(3, 'q=%22zebra%20crossed%22'))
  index.add(stored(4, 'q=zeb*'))
  index.add(stored(5, 'q=caseName:jones'))
  index.add(stored(6, 'q=%22crossed%20zebra%22'))
  t.same(index.match('o', doc).map((q) => q.id).sort(), [2, 3, 4, 5], 'the queries added later find it (the phrase in its order only)')
  t.same(index.matchBatch('o', [doc, doc]).map((m) => m.map((q) => q.id).sort()), [[2, 3, 4, 5], [2, 3, 4, 5]])
  index.remove(2)
  index.remove(4)
  t.same(index.match('o', doc).map((q) => q.id).sort(), [3, 5], 'removed queries match no more (the phrase still holds zebra)')
  index.remove(3)
  index.add(stored(7, 'q=zebra%20AND%20road'))
  t.same(index.match('o', doc).map((q) => q.id).sort(), [5, 7], 'an id given back and taken again')
  t.equal(index.size, 4)
})

t.test('a scope remembers a bounded number of tokens and stays exact when it starts again', async (t) => {
  // More distinct tokens than the memo keeps (2^18), in one batch: it is emptied while the batch is indexed.
  const index = createQueryIndex()
  const stored = (id: number, q: string) => { const ast = requestAst(req(q)); return { id, type: 'o' as const, ast, matches: compileMatcher(ast, 'o') } }
  index.add(stored(1, 'q=tok0*'))
  index.add(stored(2, 'q=tokzzzz'))
  index.add(stored(3, 'q=%22tok1%20tok2%22'))
  const text = Array.from({ length: 300_000 }, (_, i) => `tok${i.toString(36)}`).join(' ')
  const big = analyzeDocument('o', { id: 1, text })
  const small = analyzeDocument('o', { id: 2, text: 'tok1 tok2 tokzzzz tok0' })
  const got = index.matchBatch('o', [big, small]).map((m) => m.map((q) => q.id).sort())
  t.same(got, [[1, 3], [1, 2, 3]])
})
