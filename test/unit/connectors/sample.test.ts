import t from 'tap'
import { loadCourts, jurisdictionOf } from '../../../connectors/sample/courts.js'
import { generateSample, type CitedRef } from '../../../connectors/sample/generator.js'
import { extractCitations } from '../../../domain/citations/index.js'

const courts = loadCourts()
/** The day the corpora of these tests are taken, so that they do not change with the calendar. */
const TODAY = '2026-11-18'
const JURISDICTIONS = ['F', 'FD', 'FB', 'FBP', 'FS', 'S', 'SA', 'ST', 'SS', 'SAG', 'TRS', 'TRA', 'TRT', 'TRX', 'TS', 'TA', 'TT', 'TSP', 'MA', 'MT', 'C', 'I']

t.test('every court of the data set maps to the court resource', async (t) => {
  t.equal(courts.length, 2809)
  t.equal(new Set(courts.map((c) => c.id)).size, 2809, 'unique ids')
  t.equal(new Set(courts.map((c) => c.position)).size, 2809, 'unique positions')
  const by = new Map(courts.map((c) => [c.id, c]))
  t.match(by.get('scotus'), { full_name: 'Supreme Court of the United States', short_name: 'Supreme Court', citation_string: 'SCOTUS', jurisdiction: 'F', start_date: '1789-09-24', end_date: null, in_use: true })
  t.same(['ca9', 'cand', 'canb', 'bap9', 'cal', 'calctapp', 'alacirct', 'armfor'].map((id) => by.get(id)!.jurisdiction), ['F', 'FD', 'FB', 'FBP', 'S', 'SA', 'ST', 'MA'])
  t.same(by.get('cand')!.appeals_to_ids, ['ca9'])
  for (const c of courts) {
    if (!JURISDICTIONS.includes(c.jurisdiction as string)) t.fail(`${c.id}: jurisdiction ${c.jurisdiction}`)
    if (c.parent_court_id && !by.has(c.parent_court_id as string)) t.fail(`${c.id}: parent ${c.parent_court_id}`)
    for (const a of c.appeals_to_ids as string[]) if (!by.has(a)) t.fail(`${c.id}: appeals_to ${a}`)
  }
  t.equal(jurisdictionOf({ id: 'x', name: 'Tribal Court', system: 'tribal', type: 'trial', level: 'ljc' }), 'TRT')
  t.equal(jurisdictionOf({ id: 'x', name: 'Supreme Court of Guam', system: 'state', type: 'appellate', level: 'colr', location: 'Guam' }), 'TS')
})

function collect(opinions: number, seed = 1) {
  const records: { resource: string; record: Record<string, unknown> }[] = []
  const cited = new Map<number, CitedRef[]>()
  for (const r of generateSample({ courts, opinions, seed, today: TODAY, onCited: (id, c) => cited.set(id, c) })) records.push(r)
  return { records, cited }
}
const corpus = collect(800)

t.test('the generator is deterministic and scales by its flag', async (t) => {
  const a = collect(300), b = collect(300), c = collect(300, 2)
  t.same(a.records, b.records, 'same seed, same data')
  t.not(JSON.stringify(a.records), JSON.stringify(c.records), 'another seed, other data')
  const count = (rs: typeof a.records, r: string) => rs.filter((x) => x.resource === r).length
  t.equal(count(a.records, 'opinions'), 300)
  let opinions = 0
  for (const r of generateSample({ courts, opinions: 1200, today: TODAY })) if (r.resource === 'opinions') opinions++
  t.equal(opinions, 1200)
})

t.test('references point at records emitted before them, of the right resource', async (t) => {
  const { records, cited } = corpus
  const seen = new Map<string, Set<unknown>>()
  const has = (r: string, id: unknown) => seen.get(r)?.has(id) ?? false
  for (const c of courts) (seen.get('courts') ?? seen.set('courts', new Set()).get('courts')!).add(c.id)
  const refs: Record<string, [string, string][]> = {
    dockets: [['court_id', 'courts']], clusters: [['docket_id', 'dockets']], citations: [['cluster_id', 'clusters']],
    opinions: [['cluster_id', 'clusters'], ['author_id', 'people']], positions: [['person_id', 'people'], ['court_id', 'courts']],
    educations: [['person_id', 'people'], ['school_id', 'schools']], audio: [['docket_id', 'dockets']],
    'docket-entries': [['docket_id', 'dockets']], 'archive-documents': [['docket_entry_id', 'docket-entries'], ['docket_id', 'dockets']],
    'attorney-roles': [['party_id', 'parties'], ['attorney_id', 'attorneys'], ['docket_id', 'dockets']], 'party-types': [['party_id', 'parties']],
    'financial-disclosures': [['person_id', 'people']], investments: [['financial_disclosure_id', 'financial-disclosures']],
    'docket-tags': [['docket_id', 'dockets'], ['tag_id', 'tags']], visualizations: [['cluster_start_id', 'clusters'], ['cluster_end_id', 'clusters']],
    'cluster-redirections': [['cluster_id', 'clusters']],
  }
  let bad = 0
  for (const { resource, record } of records) {
    for (const [col, target] of refs[resource] ?? []) if (record[col] !== null && !has(target, record[col])) bad++
    ;(seen.get(resource) ?? seen.set(resource, new Set()).get(resource)!).add(record.id)
  }
  t.equal(bad, 0, 'no dangling or forward references')
  // Text citations resolve to emitted clusters, except the deliberately fabricated ones.
  const known = new Set(records.filter((r) => r.resource === 'citations').map((r) => `${r.record.volume}|${r.record.reporter}|${r.record.page}`))
  const all = [...cited.values()].flat()
  const missing = all.filter((c) => !known.has(`${c.volume}|${c.reporter}|${c.page}`))
  t.ok(all.length > 1000, `${all.length} citations made`)
  t.ok(missing.length > 0 && missing.length / all.length < 0.05, `${missing.length} fabricated (${((100 * missing.length) / all.length).toFixed(1)}%)`)
  // and the extractor finds them in the text, at the right reporter
  const op = records.find((r) => r.resource === 'opinions' && (cited.get(r.record.id as number)?.length ?? 0) > 3)!
  const text = String(op.record.plain_text || op.record.html)
  const found = extractCitations(text).filter((c) => c.kind === 'full_case').map((c) => `${c.volume}|${c.reporter}|${c.page}`)
  for (const c of cited.get(op.record.id as number)!) t.ok(found.includes(`${c.volume}|${c.reporter}|${c.page}`), `${c.volume} ${c.reporter} ${c.page} extracted`)
})

t.test('docket numbers and reporters fit the court and the date', async (t) => {
  const { records } = corpus
  const dockets = new Map(records.filter((r) => r.resource === 'dockets').map((r) => [r.record.id, r.record]))
  const clusters = new Map(records.filter((r) => r.resource === 'clusters').map((r) => [r.record.id, r.record]))
  for (const d of dockets.values()) {
    const n = String(d.docket_number)
    if (d.court_id === 'scotus' && !/^\d{2}-\d{1,4}$/.test(n)) t.fail(`scotus docket ${n}`)
    if (/^ca(\d+|dc|fc)$/.test(String(d.court_id)) && !/^\d{2}-\d{5}$/.test(n)) t.fail(`circuit docket ${n}`)
    if (['cand', 'cacd', 'nysd', 'dcd'].includes(String(d.court_id)) && !/^\d:\d{2}-(cv|cr)-\d{5}$/.test(n)) t.fail(`district docket ${n}`)
  }
  for (const c of records.filter((r) => r.resource === 'citations')) {
    const cl = clusters.get(c.record.cluster_id)!
    const year = Number(String(cl.date_filed).slice(0, 4))
    if (c.record.reporter === 'F.3d' && (year < 1993)) t.fail(`F.3d in ${year}`)
    if (c.record.reporter === 'F.2d' && (year > 1993)) t.fail(`F.2d in ${year}`)
  }
  t.pass('formats checked')
})
