/**
 * The courts data set mapped to the court resource: every court once, with a jurisdiction code
 * of the reference, references only to courts that exist, and the data set's known slips
 * (blank levels, mistyped courts, a swapped date range) mapped to what the courts are.
 */
import t from 'tap'
import { JURISDICTIONS, dateRange, jurisdictionOf, loadCourts, mapCourt, readRawCourts, shortNameOf } from '../../../connectors/sample/courts.js'
import { catalogue } from '../../../schemas/catalogue/index.js'

const courts = loadCourts()
const by = new Map(courts.map((c) => [c.id, c]))
const court = (id: string) => {
  const c = by.get(id)
  if (!c) throw new Error(`no court ${id}`)
  return c
}

t.test('every court of the data set, once, in file order', async (t) => {
  t.equal(courts.length, 2809)
  t.equal(by.size, 2809, 'unique ids')
  t.equal(new Set(courts.map((c) => c.position)).size, 2809, 'unique positions')
  t.ok(courts.every((c, i) => i === 0 || c.position > courts[i - 1].position), 'positions follow the file order')
  t.ok(courts.every((c) => typeof c.position === 'number' && c.id.length <= 15), 'numeric positions, ids of at most 15 characters')
})

t.test('the Supreme Court', async (t) => {
  t.same(court('scotus'), {
    id: 'scotus', records_court_id: null, records_has_rss_feed: null, records_rss_entry_types: '', date_last_records_contact: null,
    fjc_court_id: '', date_modified: '2024-01-01T00:00:00.000000+00:00', in_use: true, has_opinion_scraper: false, has_oral_argument_scraper: false,
    position: court('scotus').position, citation_string: 'SCOTUS', short_name: 'Supreme Court', full_name: 'Supreme Court of the United States',
    url: 'http://supremecourt.gov/', start_date: '1789-09-24', end_date: null, jurisdiction: 'F', parent_court_id: null, appeals_to_ids: [], notes: null,
  })
})

t.test('jurisdiction codes by kind of court', async (t) => {
  const cases: [string, string, string][] = [
    ['ca9', 'F', 'a federal court of appeals'], ['ca11', 'F', 'named "United States Court of Appeals..." in the data set'],
    ['cafc', 'F', 'the Federal Circuit'], ['cand', 'FD', 'a district court'], ['dcd', 'FD', 'a district court without a level'],
    ['canb', 'FB', 'a bankruptcy court'], ['bap9', 'FBP', 'a bankruptcy appellate panel'], ['tax', 'FS', 'the Tax Court'],
    ['uscfc', 'FS', 'the Court of Federal Claims'], ['armfor', 'MA', 'C.A.A.F.'], ['acca', 'MA', 'a service court of criminal appeals'],
    ['judcoun9', 'C', 'a circuit judicial council'], ['cal', 'S', 'a state supreme court'], ['ind', 'S', 'a state supreme court without a level'],
    ['wash', 'S', 'a state supreme court the data set calls gjc'], ['md', 'S', 'Maryland\'s former Court of Appeals'], ['dc', 'S', 'the D.C. Court of Appeals'],
    ['ny', 'S', 'the New York Court of Appeals'], ['calctapp', 'SA', 'a state intermediate court'], ['ohctapp1', 'SA', 'an Ohio court of appeals typed "trial"'],
    ['nyappdiv', 'SA', 'the Appellate Division'], ['alacirct', 'ST', 'a state trial court'], ['nysupct', 'ST', 'New York\'s trial-level Supreme Court'],
    ['njcirct', 'ST', 'a circuit court typed "appellate"'], ['ortc', 'SS', 'a tax court'], ['nyag', 'SAG', 'an attorney general'],
    ['guam', 'TS', 'a territorial supreme court'], ['virginislands', 'TS', 'a territorial supreme court typed "trial"'], ['prapp', 'TA', 'Puerto Rico\'s court of appeals'],
    ['superctguam', 'TT', 'a territorial trial court'], ['navajo', 'TRS', 'a tribal supreme court'], ['navajoctapp', 'TRA', 'a tribal court of appeals with level ljc'],
    ['navajofamct', 'TRT', 'a tribal trial court'], ['moheganelders', 'TRX', 'a council of elders'], ['kingsbench', 'I', 'an English court'],
  ]
  for (const [id, code, what] of cases) t.equal(court(id).jurisdiction, code, `${id}: ${what}`)
  for (const c of courts) if (!(JURISDICTIONS as readonly string[]).includes(c.jurisdiction)) t.fail(`${c.id}: jurisdiction ${c.jurisdiction}`)
  t.equal(jurisdictionOf({ id: 'x', name: 'Tribal Court', system: 'tribal', type: 'trial', level: 'ljc' }), 'TRT')
  t.equal(jurisdictionOf({ id: 'x', name: 'Supreme Court of Guam', system: 'state', type: 'appellate', level: 'colr', location: 'Guam' }), 'TS')
  const codes = new Set(courts.map((c) => c.jurisdiction))
  for (const code of ['F', 'FD', 'FB', 'FBP', 'FS', 'S', 'SA', 'ST', 'SS', 'SAG', 'TRS', 'TRA', 'TRT', 'TRX', 'TS', 'TA', 'TT', 'MA', 'C', 'I']) t.ok(codes.has(code), `some court is ${code}`)
})

t.test('parent courts and appeals point at courts of the data set', async (t) => {
  for (const c of courts) {
    if (c.parent_court_id !== null && (!by.has(c.parent_court_id) || c.parent_court_id === c.id)) t.fail(`${c.id}: parent ${c.parent_court_id}`)
    for (const a of c.appeals_to_ids) if (!by.has(a) || a === c.id) t.fail(`${c.id}: appeals_to ${a}`)
  }
  t.same(court('cand').appeals_to_ids, ['ca9'])
  t.equal(court('cand').parent_court_id, 'usdistct')
  t.same(court('ca11').appeals_to_ids, ['scotus'], 'a list in the data set')
  t.same(court('alajudct').appeals_to_ids, [], '"colr" is not a court id and is dropped')
  t.same(court('delaldct').appeals_to_ids, [], '"Court of Common Pleas" is not a court id and is dropped')
  t.ok(courts.filter((c) => c.parent_court_id).length > 2000, 'most parents kept')
  const raw = readRawCourts().find((c) => c.id === 'alajudct')!
  t.same(mapCourt(raw, 0).appeals_to_ids, ['colr'], 'without the set of known ids, references are kept as given')
})

t.test('dates, names, urls and use', async (t) => {
  t.same(dateRange([{ start: '1969-12-31', end: '1935-01-01' }]), { start: '1935-01-01', end: '1969-12-31' }, 'a swapped range is read the right way round')
  t.same(dateRange([{ start: null, end: '1958-12-31' }, { start: '1959-01-01', end: null }]), { start: '1959-01-01', end: null }, 'an open period means no end')
  t.same(dateRange([{ start: null, end: null }]), { start: null, end: null })
  t.same([court('flaindcommn').start_date, court('flaindcommn').end_date], ['1935-01-01', '1969-12-31'])
  t.same([court('circtdal').end_date, court('circtdal').in_use], ['1874-12-31', false], 'a court that ended is not in use')
  t.equal(court('circtndfl').in_use, false, 'a court the data set marks inactive is not in use')
  t.equal(court('jpml').full_name, 'United States Judicial Panel on Multidistrict Litigation', 'names are trimmed')
  t.equal(court('arkcityct').url, 'https://courts.arkansas.gov/content/city-courts', 'the one court with `url` instead of `court_url`')
  t.equal(court('uscfc').url, '', 'no url is an empty string')
  const shorts: [string, string][] = [
    ['ca9', 'Ninth Circuit'], ['ca11', 'Eleventh Circuit'], ['cadc', 'D.C. Circuit'], ['cand', 'N.D. California'], ['mad', 'D. Massachusetts'],
    ['dcd', 'District of Columbia'], ['canb', 'Bankr. N.D. California'], ['flsb', 'Bankr. S.D. Florida'], ['tax', 'Tax Court'], ['cal', 'California Supreme Court'],
  ]
  for (const [id, short] of shorts) t.equal(court(id).short_name, short, `${id} short name`)
  t.equal(shortNameOf({ id: 'x', name: 'A'.repeat(70), name_abbreviation: 'A. Ct.' }), 'A. Ct.', 'very long names fall back to the abbreviation')
  t.ok(courts.every((c) => c.short_name && c.full_name), 'every court has names')
})

t.test('the records have the stored fields of the court resource, and only those', async (t) => {
  const columns = catalogue.columns(catalogue.get('courts')).map(([column]) => column).sort()
  t.same(Object.keys(court('scotus')).sort(), columns)
})
