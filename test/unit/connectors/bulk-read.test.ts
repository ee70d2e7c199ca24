import t from 'tap'
import { mkdtempSync, readFileSync, writeFileSync, existsSync, copyFileSync, rmSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readBulkDir, readBulkFile, type BulkRow, type BulkProgress } from '../../../connectors/bulk/index.js'
import { edgeId } from '../../../domain/citations/edges.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { createEntityCodec } from '../../../schemas/events/entity-codec.js'
import { projectFile } from '../../../core/programs.js'

const DUMP = projectFile('test/fixtures/bulk/dump/')

const dirs: string[] = []
const tmp = () => { const d = mkdtempSync(path.join(tmpdir(), 'bulk-read-')); dirs.push(d); return d }
t.teardown(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })
const readDead = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [])

async function readAll(dir: string) {
  const deadLetterPath = path.join(tmp(), 'dead.jsonl')
  const rows: BulkRow[] = []
  const skipped: string[] = []
  const progress: BulkProgress[] = []
  for await (const r of readBulkDir(dir, { deadLetterPath, onProgress: (p) => progress.push(p), onSkippedFile: (n) => skipped.push(n) })) rows.push(r)
  return { rows, dead: readDead(deadLetterPath), skipped, progress }
}

const all = readAll(DUMP)
const find = async (resource: string, id: unknown) => (await all).rows.find((r) => r.resource === resource && r.record.id === id)

t.test('typed values in storage form', async (t) => {
  const d1 = (await find('dockets', 1))!
  t.same(d1.record, {
    id: 1, date_created: '2024-01-02T03:04:05.123456+00:00', date_modified: '2024-01-02T03:04:05+00:00', source: 2,
    court_id: 'scotus', appeal_from_id: null, assigned_to_id: null, case_name: 'Smith v. Jones', docket_number: null,
    date_filed: '2021-10-01', blocked: false, records_case_id: '', view_count: 0, nature_of_suit: '',
  }, 'NULL → null, `` → "", t/f → booleans, integers → numbers, timestamps → ISO, a column the API does not show is stored too')
  t.equal(d1.file, 'search_docket-2024-08-31.csv')
  t.equal(d1.line, 2)

  const d2 = (await find('dockets', 2))!
  t.equal(d2.record.case_name, 'Multi\nline `quoted` name, with comma\nand a third line', 'newlines, doubled backticks and commas inside a value')
  t.equal(d2.record.blocked, true)
  t.equal(d2.record.assigned_to_id, 42)
  t.equal(d2.line, 3)

  const d9 = (await find('dockets', 9))!
  t.equal(d9.line, 13)
  t.equal(d9.record.case_name, 'Line one\r\nline two', 'a CRLF inside a value is kept')
  t.equal(d9.record.appeal_from_id, 'scotus', 'appeal_from points at a court: a string')
  t.equal(d9.record.date_created, '2024-06-30T23:59:59.5+05:30')
  t.equal((await find('dockets', 10))!.line, 16, 'line numbers stay right after a CRLF and a blank line')

  const ca9 = (await find('courts', 'ca9'))!.record
  t.match(ca9, { records_court_id: 9, records_has_rss_feed: true, date_last_records_contact: '2024-03-01T10:00:00-05:00', position: 9.5, parent_court_id: 'scotus', fjc_court_id: '09' })
  t.notOk('pacer_court_id' in ca9, 'pacer_* columns arrive under their neutral names')
  const scotus = (await find('courts', 'scotus'))!
  t.match(scotus.record, { records_court_id: null, records_rss_entry_types: '', notes: 'Notes, with a comma\nand a second line', parent_court_id: null })

  t.match((await find('people', 42))!.record, { fjc_id: 1234, name_middle: '', ftm_total_received: 1500.25, ftm_eid: null, has_photo: false, date_dob: '1950-02-28' })
  t.match((await find('positions', 7))!.record, { court_id: 'ca9', person_id: 42, sector: 2, votes_yes_percent: 0.55, voice_vote: null })
  t.match((await find('clusters', 100))!.record, { docket_id: 1, citation_count: 12, filepath_json_partner_c: 'law.free.cap/1.json', scdb_votes_majority: null })
  t.match((await find('citations', 1001))!.record, { volume: 135, reporter: 'S. Ct.', page: '2584', type: 1, cluster_id: 100 })
  const o500 = (await find('opinions', 500))!.record
  t.equal(o500.plain_text, 'It is so ordered.\n\nThe `rule`, as stated, applies.\n')
  t.equal(o500.html_partner_a, '', 'html_lawbox under its neutral name')
  t.match((await find('opinions', 501))!.record, { page_count: null, html_partner_a: null, plain_text: '', author_id: null, per_curiam: true })
})

t.test('the citation map, from a .bz2 file', async (t) => {
  const edges = (await all).rows.filter((r) => r.resource === 'opinions-cited').map((r) => r.record)
  t.same(edges, [
    { id: 1, depth: 2, cited_opinion_id: 501, citing_opinion_id: 500 },
    { id: edgeId(500, 502), depth: 1, cited_opinion_id: 502, citing_opinion_id: 500 },
  ], "the reference's id when given; otherwise the citation network's id for the pair")
})

t.test('bad rows go to the dead-letter file with line and reason; their neighbours are kept', async (t) => {
  const { rows, dead } = await all
  t.same(rows.filter((r) => r.resource === 'dockets').map((r) => r.record.id), [1, 2, 9, 10])
  t.same(dead.map((d) => [d.file, d.line, d.reason]), [
    ['search_docket-2024-08-31.csv', 6, 'expected 14 columns, found 15'],
    ['search_docket-2024-08-31.csv', 7, 'source: not an integer: "two"'],
    ['search_docket-2024-08-31.csv', 8, 'date_filed: invalid date: "2021-02-30"'],
    ['search_docket-2024-08-31.csv', 9, 'row has no id'],
    ['search_docket-2024-08-31.csv', 10, 'unexpected "q" after a closing backtick'],
    ['search_docket-2024-08-31.csv', 11, 'blocked: not a boolean (t/f): "yes"'],
    ['search_docket-2024-08-31.csv', 12, 'date_created: invalid timestamp: "yesterday"'],
    ['opinions-2024-08-31.csv', 7, 'unterminated backtick quote at end of file'],
  ])
  t.match(dead[0], { resource: 'dockets', raw: /^`3`,.*`extra`$/ })
  t.equal(dead[7].raw, '`502`,`2024-01-02 03:04:05+00`,`2024-01-02 03:04:05+00`,``,`f`,`040dissent`,`1`,`I dissent, because\nthe text never ends')
  t.same(rows.filter((r) => r.resource === 'opinions').map((r) => r.record.id), [500, 501], 'the opinions before the broken end are kept')
})

t.test('every row is accounted for', async (t) => {
  const { rows, dead } = await all
  // Data lines per file, minus header, minus continuation lines of multi-line records and the blank line.
  // people: one person and one person-race link row (joined into the person by the driver).
  const expected = { courts: 2, schools: 1, people: 2, positions: 1, dockets: 4, clusters: 1, citations: 2, opinions: 2, 'opinions-cited': 2, 'financial-disclosures': 1 }
  const got: Record<string, number> = {}
  for (const r of rows) got[r.resource] = (got[r.resource] ?? 0) + 1
  t.same(got, expected)
  t.equal(rows.length + dead.length, 18 + 8)
})

t.test('skipped files and progress', async (t) => {
  const { skipped, progress } = await all
  t.same(skipped, [], 'every file of the dump is one of the reference\'s 33')
  const last = (file: string) => progress.filter((p) => p.file === file).at(-1)!
  t.match(last('people-db-races-2024-08-31.csv'), { rows: 1, bad: 0, dialect: 'backtick' })
  t.match(last('search_docket-2024-08-31.csv'), { rows: 4, bad: 7, bytes: 1533, totalBytes: 1533 })
  const bz = last('citation-map-2024-08-31.csv.bz2')
  t.equal(bz.bytes, bz.totalBytes, 'progress counts compressed bytes read')
  t.equal(bz.rows, 2)
})

t.test('every record is one the publisher accepts', async (t) => {
  const { rows } = await all
  for (const r of rows.filter((r) => !r.file.startsWith('people-db-races'))) { // link rows are joined into people by the driver
    const codec = createEntityCodec(catalogue, catalogue.get(r.resource))
    try {
      codec.toEntity(r.record)
    } catch (err) {
      t.fail(`${r.resource} ${r.record.id}: ${(err as Error).message}`)
    }
  }
  t.pass(`${rows.length} records encoded`)
})

t.test('readBulkFile with an explicit resource; a BOM is ignored; a file without rows', async (t) => {
  const dir = tmp()
  const file = path.join(dir, 'anything.csv')
  writeFileSync(file, '\uFEFFid,name,ein\n`3`,`Yale`,`61`\n')
  const rows = []
  for await (const r of readBulkFile(file, 'schools', { deadLetterPath: path.join(dir, 'dead.jsonl') })) rows.push(r)
  t.same(rows, [{ resource: 'schools', record: { id: 3, name: 'Yale', ein: 61 }, line: 2, file: 'anything.csv', ordinal: 1, replayed: false }])
  writeFileSync(file, 'id,name\n')
  const none = []
  for await (const r of readBulkFile(file, 'schools', { deadLetterPath: path.join(dir, 'dead.jsonl') })) none.push(r)
  t.same(none, [])
  t.notOk(existsSync(path.join(dir, 'dead.jsonl')), 'no dead-letter file when nothing was refused')
})

t.test('a corrupt .bz2 file throws after the rows it could read; a missing file throws', async (t) => {
  const dir = tmp()
  const csv = path.join(dir, 'citations-2024-08-31.csv')
  copyFileSync(path.join(DUMP, 'citations-2024-08-31.csv'), csv)
  execFileSync('bzip2', [csv])
  const good = readFileSync(csv + '.bz2')
  writeFileSync(csv + '.bz2', good.subarray(0, good.length - 10)) // cut short
  const rows: BulkRow[] = []
  await t.rejects(async () => {
    for await (const r of readBulkFile(csv + '.bz2', 'citations', { deadLetterPath: path.join(dir, 'dead.jsonl') })) rows.push(r)
  }, /citations-2024-08-31.csv.bz2: l?bzip2 could not decompress citations-2024-08-31.csv.bz2/)
  await t.rejects(async () => {
    for await (const r of readBulkFile(path.join(dir, 'nope.csv'), 'citations', { deadLetterPath: path.join(dir, 'dead.jsonl') })) rows.push(r)
  }, /ENOENT/)
})
