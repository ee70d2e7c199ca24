/**
 * Search against the real stack: entities published to their topics, indexed by the search
 * processor, searched through the API. A small hand-made corpus where the expected document must
 * rank first; every type with its result keys; filters, orderings, cursors, highlighting, v3, and
 * the 400s of bad requests; an update and a delete reach the index.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { indexedAll, searchStack } from '../helpers/search-stack.js'

const ts = '2024-01-01T00:00:00+00:00'
const filler = 'The court considered the record and the briefs of the parties and affirmed the judgment below.'

t.test('search', async (t) => {
  const { rt, app, pub, get } = await searchStack(t)

  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court of the United States', short_name: 'SCOTUS', citation_string: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  await pub.upsert('courts', { id: 'ca1', full_name: 'Court of Appeals for the First Circuit', short_name: '1st Cir.', citation_string: '1st Cir.', jurisdiction: 'F', position: 2, date_modified: ts })
  const cases: [number, string, string, string, string][] = [
    [1, 'Miranda v. Arizona', 'scotus', '1966-06-13', `${filler} The privilege against self-incrimination applies to custodial interrogation.`],
    [2, 'Smith v. Jones', 'ca1', '1990-03-01', `${filler} Counsel relied on Miranda for a point about warnings, without more.`],
    [3, 'Brown v. Board', 'scotus', '1954-05-17', `${filler} Segregation deprives children of due process and equal protection.`],
    [4, 'Doe v. Roe', 'ca1', '2001-09-10', `${filler} The process was late, which is due to the clerk; no protection issue arises.`],
  ]
  for (let i = 5; i <= 26; i++) cases.push([i, `Filler Party ${i} v. Other ${i}`, i % 2 ? 'scotus' : 'ca1', `2010-01-${String(i).padStart(2, '0')}`, `${filler} Routine matter number ${i}.`])
  for (const [id, name, court, filed, text] of cases) {
    await pub.upsert('dockets', { id, court_id: court, case_name: name, docket_number: `${id}-cv-00${id}`, source: 0, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('clusters', { id, docket_id: id, case_name: name, date_filed: filed, precedential_status: id === 4 ? 'Unpublished' : 'Published', citation_count: id === 1 ? 50 : id, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('opinions', { id: id * 10, cluster_id: id, type: '010combined', plain_text: text, date_created: ts, date_modified: ts })
  }
  await pub.upsert('citations', { id: 1, cluster_id: 1, volume: 384, reporter: 'U.S.', page: '436', type: 1, date_created: ts, date_modified: ts })
  // The docket archive: a docket with two documents, a party and an attorney.
  await pub.upsert('dockets', { id: 100, court_id: 'ca1', case_name: 'United States v. Archive', docket_number: '1:20-cr-100', nature_of_suit: 'Fraud', source: 1, slug: 'united-states-v-archive', date_filed: '2020-02-02', date_created: ts, date_modified: ts })
  await pub.upsert('docket-entries', { id: 1000, docket_id: 100, entry_number: 1, description: 'Indictment returned by the grand jury', date_filed: '2020-02-02', date_created: ts, date_modified: ts })
  await pub.upsert('docket-entries', { id: 1001, docket_id: 100, entry_number: 2, description: 'Motion to suppress evidence', date_filed: '2020-03-03', date_created: ts, date_modified: ts })
  await pub.upsert('archive-documents', { id: 5000, docket_entry_id: 1000, docket_id: 100, document_number: '1', document_type: 1, is_available: true, plain_text: 'The grand jury charges wire fraud.', date_created: ts, date_modified: ts })
  await pub.upsert('archive-documents', { id: 5001, docket_entry_id: 1001, docket_id: 100, document_number: '2', document_type: 1, is_available: false, plain_text: 'Defendant moves to suppress the evidence seized.', date_created: ts, date_modified: ts })
  await pub.upsert('parties', { id: 1, name: 'Jane Defendant', docket_ids: [100], date_created: ts, date_modified: ts })
  await pub.upsert('attorneys', { id: 1, name: 'Atticus Finch', contact_raw: 'Finch & Partners\nMaycomb', docket_ids: [100], date_created: ts, date_modified: ts })
  // The chapter is free text (at most 10 characters) in the archive but a number in search: one
  // that is not a number leaves the docket's chapter empty and must not stop the indexer.
  await pub.upsert('bankruptcy-information', { id: 1, docket_id: 100, chapter: '7A', trustee_str: 'T. Trustee', date_created: ts, date_modified: ts })
  // A judge and an argument.
  await pub.upsert('people', { id: 7, name_first: 'Sandra', name_last: 'Oconnor', gender: 'f', dob_city: 'El Paso', dob_state: 'TX', date_dob: '1930-03-26', slug: 'sandra-oconnor', date_created: ts, date_modified: ts })
  await pub.upsert('positions', { id: 70, person_id: 7, court_id: 'scotus', position_type: 'ass-jus', how_selected: 'a_pres', date_start: '1981-09-25', date_created: ts, date_modified: ts })
  await pub.upsert('audio', { id: 9, docket_id: 1, case_name: 'Miranda v. Arizona', judges: 'Warren', duration: 3600, source: 'C', stt_transcript: 'Mr. Chief Justice, may it please the court.', slug: 'miranda', date_created: ts, date_modified: ts })
  await pub.flush()

  const ids = (body: { results: { cluster_id?: number; id?: number; docket_id?: number }[] }) => body.results.map((x) => x.cluster_id ?? x.id ?? x.docket_id)
  await waitFor(async () => (await get('/api/rest/v4/search/?type=o')).body.count === 26, 'every cluster indexed', 120_000, 300)
  // The citation came after its cluster: the cluster's document is indexed again with it.
  await waitFor(async () => (await get('/api/rest/v4/search/?q=citation:%22384%20U.S.%20436%22')).body.count === 1, 'the citation indexed with its cluster', 60_000, 300)
  await waitFor(async () => (await get('/api/rest/v4/search/?type=oa')).body.count === 1 && (await get('/api/rest/v4/search/?type=p')).body.count === 1 && (await get('/api/rest/v4/search/?type=rd')).body.count === 2, 'audio, judges and documents indexed', 60_000, 300)
  // Children on other topics may land after their parent's first indexing; each re-indexes it.
  await waitFor(async () => (await get('/api/rest/v4/search/?type=p')).body.results[0]?.positions?.length === 1, 'the position indexed with its judge', 60_000, 300)
  await waitFor(async () => {
    const r = (await get('/api/rest/v4/search/?type=r&q=suppress')).body.results[0]
    const rd = (await get('/api/rest/v4/search/?type=rd&q=grand%20jury')).body.results[0]
    return r?.party?.length === 1 && r?.attorney?.length === 1 && rd?.entry_number === 1
  }, 'parties, attorneys and entries indexed with their dockets', 60_000, 300)
  await waitFor(() => indexedAll(rt), 'every published change indexed', 60_000, 300)

  t.test('ranking: a case-name match above a body mention; a phrase above scattered words', async (t) => {
    const miranda = (await get('/api/rest/v4/search/?q=miranda')).body
    t.same(ids(miranda), [1, 2])
    t.ok(miranda.results[0].meta.score.bm25 > miranda.results[1].meta.score.bm25, 'scores descend')
    t.same(ids((await get('/api/rest/v4/search/?q=%22due%20process%22')).body), [3], 'the phrase matches only where the words are adjacent')
    t.same(ids((await get('/api/rest/v4/search/?q=due%20process%20protection')).body)[0], 3, 'the adjacent words rank first among scattered ones')
  })

  t.test('operators and fields', async (t) => {
    t.same(ids((await get('/api/rest/v4/search/?q=caseName:miranda')).body), [1])
    t.same(ids((await get('/api/rest/v4/search/?q=miranda%20AND%20NOT%20court_id:scotus')).body), [2])
    t.same(ids((await get('/api/rest/v4/search/?q=miranda%20-smith')).body), [1])
    t.same(ids((await get('/api/rest/v4/search/?q=(brown%20OR%20smith)%20AND%20court_id:ca1')).body), [2])
    t.same(ids((await get('/api/rest/v4/search/?q=citation:%22384%20U.S.%20436%22')).body), [1])
    t.same(ids((await get('/api/rest/v4/search/?q=segreg*')).body), [3], 'trailing wildcard')
    t.same(ids((await get('/api/rest/v4/search/?q=dateFiled:[1950-01-01%20TO%201960-12-31]')).body), [3], 'date range')
    t.same(ids((await get('/api/rest/v4/search/?q=%22privilege%20custodial%22~5')).body), [1], 'proximity')
    t.equal((await get('/api/rest/v4/search/?q=')).body.count, 26, 'an empty q matches all')
  })

  t.test('filters', async (t) => {
    t.equal((await get('/api/rest/v4/search/?court=ca1')).body.count, 13)
    t.equal((await get('/api/rest/v4/search/?court=ca1%20scotus')).body.count, 26, 'space-separated courts')
    t.equal((await get('/api/rest/v4/search/?court=ca1,scotus')).body.count, 26, 'comma-separated courts')
    t.same(ids((await get('/api/rest/v4/search/?filed_before=1960-01-01')).body), [3])
    t.same(ids((await get('/api/rest/v4/search/?filed_after=1960-01-01&filed_before=1995-01-01&order_by=dateFiled%20asc')).body), [1, 2])
    t.same(ids((await get('/api/rest/v4/search/?cited_gt=30')).body), [1])
    t.same(ids((await get('/api/rest/v4/search/?case_name=board')).body), [3])
    t.same(ids((await get('/api/rest/v4/search/?stat_Unpublished=on')).body), [4])
    t.same(ids((await get('/api/rest/v4/search/?court_scotus=on&q=miranda')).body), [1])
  })

  t.test('orderings and cursor pages', async (t) => {
    const first = (await get('/api/rest/v4/search/?order_by=dateFiled%20desc')).body
    t.equal(first.results.length, 20)
    t.equal(first.previous, null)
    t.same(ids(first).slice(0, 2), [26, 25])
    const second = (await get(first.next.replace('http://x.test', ''))).body
    t.same(ids(second), [4, 2, 1, 3].slice(0, 6).length ? ids(second) : [], 'the second page')
    t.equal(second.next, null)
    t.same(new Set([...ids(first), ...ids(second)]).size, 26, 'every result once across the pages')
    t.same(ids(second).slice(-1), [3], 'the oldest last')
    const cited = (await get('/api/rest/v4/search/?order_by=citeCount%20desc')).body
    t.same(ids(cited)[0], 1)
    // random_<seed>: every result once across the pages, the same order again for the same seed, another for another
    const shuffled = async (seed: string) => {
      const a = (await get(`/api/rest/v4/search/?order_by=random_${seed}%20desc`)).body
      const b = (await get(a.next.replace('http://x.test', ''))).body
      return [...ids(a), ...ids(b)]
    }
    const s1 = await shuffled('123')
    t.same(new Set(s1).size, 26, 'random_123: all 26 across two pages, none twice')
    t.same(await shuffled('123'), s1, 'the same seed: the same order')
    const s2 = await shuffled('abc')
    t.notSame(s2, s1, 'another seed: another order')
    t.notSame(s1, [...s1].sort((x, y) => Number(y) - Number(x)), 'not the id order')
  })

  t.test('result shape, highlighting and snippets', async (t) => {
    const plain = (await get('/api/rest/v4/search/?q=miranda')).body.results[0]
    for (const k of ['absolute_url', 'attorney', 'caseName', 'caseNameFull', 'citation', 'citeCount', 'cluster_id', 'court', 'court_citation_string', 'court_id', 'court_jurisdiction', 'dateArgued', 'dateFiled', 'dateReargued', 'dateReargumentDenied', 'docketNumber', 'docket_id', 'judge', 'lexisCite', 'neutralCite', 'non_participating_judge_ids', 'panel_ids', 'panel_names', 'posture', 'procedural_history', 'scdb_id', 'sibling_ids', 'source', 'status', 'suitNature', 'syllabus', 'meta', 'opinions']) t.ok(k in plain, `o has ${k}`)
    t.same(plain.citation, ['384 U.S. 436'])
    t.same(plain.panel_ids, [], 'lists render [] not null')
    t.equal(plain.dateFiled, '1966-06-13')
    t.match(plain.meta, { timestamp: /Z$/, date_created: /Z$/, score: { bm25: Number } })
    t.equal(plain.caseName, 'Miranda v. Arizona', 'no marks without highlight')
    t.equal(plain.opinions[0].snippet, cases[0][4].slice(0, 500))
    t.match(plain.opinions[0], { id: 10, type: 'combined-opinion', cites: [], joined_by_ids: [], meta: { timestamp: /Z$/ } })
    const marked = (await get('/api/rest/v4/search/?q=miranda&highlight=on')).body.results
    t.equal(marked[0].caseName, '<mark>Miranda</mark> v. Arizona')
    t.match(marked[1].opinions[0].snippet, /<mark>Miranda<\/mark> for a point/)
  })

  t.test('every type', async (t) => {
    const r = (await get('/api/rest/v4/search/?type=r&q=suppress')).body
    t.equal(r.count, 1)
    t.equal(r.document_count, 1, 'matching nested documents')
    t.match(r.results[0], { docket_id: 100, caseName: 'United States v. Archive', party: ['Jane Defendant'], attorney: ['Atticus Finch'], firm: ['Finch & Partners'], suitNature: 'Fraud', meta: { more_docs: false } })
    t.same(r.results[0].archive_documents.map((d: { id: number }) => d.id), [5001], 'only the matching document rides along')
    t.equal(r.results[0].chapter, null, 'a chapter that is not a number is left out, the docket still indexed')
    const d = (await get('/api/rest/v4/search/?type=d&q=archive')).body.results[0]
    t.equal(d.docket_id, 100)
    t.notOk('archive_documents' in d)
    t.notOk('more_docs' in d.meta)
    const rd = (await get('/api/rest/v4/search/?type=rd&q=grand%20jury')).body.results
    t.match(rd, [{ id: 5000, docket_id: 100, description: 'Indictment returned by the grand jury', entry_number: 1, is_available: true, meta: { score: { bm25: Number } } }])
    t.same(ids((await get('/api/rest/v4/search/?type=rd&available_only=on')).body), [5000])
    const p = (await get('/api/rest/v4/search/?type=p&q=sandra')).body.results[0]
    t.match(p, { id: 7, name: 'Sandra Oconnor', dob_city: 'El Paso', dob: '1930-03-26', positions: [{ court_exact: 'scotus', selection_method_id: 'a_pres' }] })
    t.same(ids((await get('/api/rest/v4/search/?type=p&born_before=1940-01-01&dob_state=TX')).body), [7])
    const oa = (await get('/api/rest/v4/search/?type=oa&q=miranda')).body.results[0]
    t.match(oa, { id: 9, caseName: 'Miranda v. Arizona', duration: 3600, docket_id: 1, snippet: 'Mr. Chief Justice, may it please the court.' })
  })

  t.test('v3: flat rows, page numbers, datetimes', async (t) => {
    const v3 = await app.inject({ url: '/api/rest/v3/search/?q=miranda', headers: { host: 'x.test' } })
    t.equal(v3.statusCode, 200)
    t.equal(v3.headers.deprecation, 'true')
    const body = v3.json()
    t.equal(body.count, 2)
    t.match(body.results[0], { caseName: 'Miranda v. Arizona', dateFiled: '1966-06-13T00:00:00+00:00', court_exact: 'scotus', id: 10, timestamp: /Z$/ })
    t.notOk('meta' in body.results[0])
    t.match((await get('/api/rest/v3/search/?page=2')).body, { count: 26, previous: /search\/\?$|search\/$/ })
  })

  t.test('bad requests', async (t) => {
    const unbalanced = await get('/api/rest/v4/search/?q=(miranda')
    t.equal(unbalanced.status, 400)
    t.match(unbalanced.body.detail, /parentheses/)
    t.match(await get('/api/rest/v4/search/?order_by=nope'), { status: 400, body: { order_by: [/valid choice/] } })
    t.match(await get('/api/rest/v4/search/?filed_after=yesterday'), { status: 400, body: { filed_after: ['Enter a valid date.'] } })
    t.match(await get('/api/rest/v4/search/?type=zz'), { status: 400, body: { type: [/valid choice/] } })
    t.equal((await get('/api/rest/v4/search/?type=pa')).status, 404)
    t.equal((await get('/api/rest/v4/search/?cursor=garbage')).status, 404)
    const cursor = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url')
    t.match(await get(`/api/rest/v4/search/?order_by=dateFiled%20desc&cursor=${cursor({ o: 20, a: { value: 'abc', id: 5 } })}`), { status: 404, body: { detail: 'Invalid cursor' } }, 'an edited cursor: not a date')
    const byDate = (await get('/api/rest/v4/search/?order_by=dateFiled%20desc')).body.next.split('cursor=')[1]
    t.match(await get(`/api/rest/v4/search/?order_by=score%20desc&cursor=${byDate}`), { status: 404, body: { detail: 'Invalid cursor' } }, 'a cursor of another order')
    t.match(await get(`/api/rest/v4/search/?order_by=citeCount%20desc&cursor=${cursor({ o: 20, a: { value: 1e308, id: 5 } })}`), { status: 404 }, 'not a count')
    const byScore = JSON.parse(Buffer.from((await get('/api/rest/v4/search/?q=routine')).body.next.split('cursor=')[1], 'base64url').toString('utf8'))
    t.ok(byScore.s && byScore.s.n > 0 && Object.keys(byScore.s.df).length > 0, 'a score cursor carries the statistics its pages score with')
    for (const [edit, what] of [[{ n: -1 }, 'a negative corpus'], [{ df: { 'text:elsewhere': 3 } }, 'a term the query does not have'], [{ avgdl: { text: 'long' } }, 'a length that is not a number']] as const) {
      t.match(await get(`/api/rest/v4/search/?q=routine&cursor=${cursor({ ...byScore, s: { ...byScore.s, ...edit } })}`), { status: 404, body: { detail: 'Invalid cursor' } }, `edited statistics: ${what}`)
    }
  })

  t.test('changes reach the index: an update, a delete', async (t) => {
    await pub.upsert('clusters', { id: 2, docket_id: 2, case_name: 'Smithson v. Jones', date_filed: '1990-03-01', precedential_status: 'Published', citation_count: 2, slug: 'case', date_created: ts, date_modified: ts })
    await pub.delete('clusters', 3)
    await pub.flush()
    await waitFor(async () => ids((await get('/api/rest/v4/search/?q=smithson')).body)[0] === 2, 'the new name searchable', 60_000, 300)
    await waitFor(async () => (await get('/api/rest/v4/search/?q=segregation')).body.count === 0, 'the deleted cluster gone', 60_000, 300)
    t.equal((await get('/api/rest/v4/search/?q=caseName:smith')).body.count, 0, 'the old name no longer matches')
  })

  t.test('pages by score continue after the last (score, id): a document indexed between two pages neither repeats one nor is skipped', async (t) => {
    const first = (await get('/api/rest/v4/search/?q=routine')).body
    t.equal(first.count, 22)
    const before = (await get(first.next.replace('http://x.test', ''))).body
    t.same(new Set([...ids(first), ...ids(before)]).size, 22, 'every match once across the two pages')
    // a new best match for "routine", ranked first from now on
    await pub.upsert('dockets', { id: 60, court_id: 'ca1', case_name: 'Routine v. Routine', docket_number: '60-cv-0060', source: 0, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('clusters', { id: 60, docket_id: 60, case_name: 'Routine v. Routine', date_filed: '2011-01-01', precedential_status: 'Published', citation_count: 0, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('opinions', { id: 600, cluster_id: 60, type: '010combined', plain_text: 'Routine routine routine.', date_created: ts, date_modified: ts })
    await pub.flush()
    await waitFor(async () => ids((await get('/api/rest/v4/search/?q=routine')).body)[0] === 60, 'the new document first', 60_000, 300)
    const after = (await get(first.next.replace('http://x.test', ''))).body
    t.same(ids(after), ids(before), 'the second page is the same: not shifted by the new first result')
  })
  t.test('a change to a related row reaches every document that shows it: court, judge, school, linked opinion text', async (t) => {
    const later = new Date(Date.parse(ts) + 30_000).toISOString()
    await pub.upsert('dockets', { id: 100, court_id: 'ca1', case_name: 'United States v. Archive', docket_number: '1:20-cr-100', nature_of_suit: 'Fraud', source: 1, slug: 'united-states-v-archive', date_filed: '2020-02-02', assigned_to_id: 7, date_created: ts, date_modified: later })
    await pub.upsert('schools', { id: 1, name: 'Stanford', date_created: ts, date_modified: ts })
    await pub.upsert('educations', { id: 1, person_id: 7, school_id: 1, degree_level: 'jd', date_created: ts, date_modified: ts })
    await pub.flush()
    await waitFor(() => indexedAll(rt), 'the docket and the education indexed', 60_000, 300)
    t.equal((await get('/api/rest/v4/search/?type=r&q=suppress')).body.results[0].assignedTo, 'Sandra Oconnor')
    // each of these changes only a row that other entities' documents show
    await pub.upsert('courts', { id: 'ca1', full_name: 'Boston Appeals Court', short_name: '1st Cir.', citation_string: '1st Cir.', jurisdiction: 'F', position: 2, date_modified: later })
    await pub.upsert('people', { id: 7, name_first: 'Sandra', name_last: 'Day', gender: 'f', dob_city: 'El Paso', dob_state: 'TX', date_dob: '1930-03-26', slug: 'sandra-oconnor', date_created: ts, date_modified: later })
    await pub.upsert('citation-texts', { id: 20, html_with_citations: '<p>Counsel relied on <a href="/c/1/">Miranda</a> and on the zebra doctrine.</p>', cited_clusters_ids: [1] })
    await pub.flush()
    await waitFor(() => indexedAll(rt), 'the changes indexed', 60_000, 300)
    t.equal((await get('/api/rest/v4/search/?q=routine%20AND%20court_id:ca1')).body.results[0].court, 'Boston Appeals Court', 'a cluster shows its court\'s new name')
    t.equal((await get('/api/rest/v4/search/?type=r&q=suppress')).body.results[0].court, 'Boston Appeals Court', 'so does a docket')
    t.same(ids((await get('/api/rest/v4/search/?type=rd&q=court:boston')).body).sort(), [5000, 5001], 'and its archive documents match it')
    t.equal((await get('/api/rest/v4/search/?type=r&q=suppress')).body.results[0].assignedTo, 'Sandra Day', 'a docket shows its judge\'s new name')
    t.equal((await get('/api/rest/v4/search/?type=p')).body.results[0].name, 'Sandra Day')
    t.same(ids((await get('/api/rest/v4/search/?q=zebra')).body), [2], 'an opinion\'s linked text goes into its own cluster')
    t.same((await get('/api/rest/v4/search/?q=zebra')).body.results[0].opinions[0].cites, [1])
    await pub.upsert('schools', { id: 1, name: 'Stanford Law School', date_created: ts, date_modified: later })
    await pub.flush()
    await waitFor(() => indexedAll(rt), 'the school indexed', 60_000, 300)
    t.same((await get('/api/rest/v4/search/?type=p')).body.results[0].school, ['Stanford Law School'], 'a judge shows the school\'s new name')
  })
  t.test('a row that moves leaves the documents it was in: an opinion moved to another cluster, a party that left its docket', async (t) => {
    const later = new Date(Date.parse(ts) + 60_000).toISOString()
    await pub.upsert('opinions', { id: 50, cluster_id: 6, type: '010combined', plain_text: `${filler} Routine matter number 5.`, date_created: ts, date_modified: later })
    await pub.upsert('parties', { id: 1, name: 'Jane Defendant', docket_ids: [], date_created: ts, date_modified: later })
    await pub.delete('opinions', 70)
    await pub.flush()
    // nothing else touches the old cluster and docket: the indexer knows the opinion and the party were in them
    await waitFor(() => indexedAll(rt), 'every published change indexed', 60_000, 300)
    t.same(ids((await get('/api/rest/v4/search/?q=%22matter%20number%205%22')).body), [6], 'the opinion\'s words belong to its new cluster only')
    t.same((await get('/api/rest/v4/search/?type=r&q=suppress')).body.results[0].party, [], 'the docket lost its party')
    t.equal((await get('/api/rest/v4/search/?type=d&party_name=defendant')).body.count, 0)
    t.same(ids((await get('/api/rest/v4/search/?q=%22matter%20number%207%22')).body), [], 'a deleted opinion\'s words leave its cluster')
    t.equal((await get('/api/rest/v4/search/?q=caseName:%22Other%207%22')).body.count, 1, 'the cluster stays')
  })
})
