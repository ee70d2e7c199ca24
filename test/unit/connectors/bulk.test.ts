import t from 'tap'
import { mkdtempSync, readFileSync, writeFileSync, createWriteStream, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readBulkDir, listBulkFiles } from '../../../connectors/bulk/index.js'
import { prefixOf } from '../../../connectors/bulk/files.js'
import { columnName, normalizeValue } from '../../../connectors/bulk/columns.js'
import { edgeId } from '../../../core/edges.js'

const FIXTURES = new URL('../../fixtures/bulk/', import.meta.url).pathname

async function readAll(dir: string) {
  const deadLetterPath = path.join(mkdtempSync(path.join(tmpdir(), 'bulk-')), 'dead.jsonl')
  const rows = []
  for await (const r of readBulkDir(dir, { deadLetterPath })) rows.push(r)
  const dead = existsSync(deadLetterPath) ? readFileSync(deadLetterPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []
  return { rows, dead }
}

t.test('files: resource by name prefix, dependency order, unknown files skipped', async (t) => {
  t.equal(prefixOf('opinion-clusters-2024-08-31.csv.bz2'), 'opinion-clusters')
  t.equal(prefixOf('people-db-people-2024-08-31.csv'), 'people-db-people')
  const { files, skipped } = listBulkFiles(FIXTURES)
  t.same(files.map((f) => f.resource), ['courts', 'dockets', 'opinions-cited'])
  t.same(skipped, ['search_unknown-2024-08-31.csv'])
})

t.test('values: NULL and empty string kept apart, newlines and backticks, timestamps in ISO', async (t) => {
  const { rows } = await readAll(FIXTURES)
  const d1 = rows.find((r) => r.resource === 'dockets' && r.record.id === '1')!.record
  t.equal(d1.nature_of_suit, '', 'a quoted empty field is the empty string')
  t.equal(d1.date_created, '2024-01-02T03:04:05.123456+00:00')
  const d2 = rows.find((r) => r.record.id === '2')!
  t.equal(d2.record.docket_number, null, 'an unquoted empty field is NULL')
  t.equal(d2.record.case_name, 'Multi\nline `quoted` name, with comma')
  t.equal(d2.line, 3, 'the line where the record starts')
  const court = rows.find((r) => r.resource === 'courts')!.record
  t.equal(court.records_court_id, null, 'pacer_court_id arrives under its neutral name')
  t.notOk('pacer_court_id' in court)
  const edge = rows.find((r) => r.resource === 'opinions-cited')!.record
  t.same(edge, { id: edgeId(10, 11), citing_opinion_id: '10', cited_opinion_id: '11', depth: '2' }, 'bz2 citation map, id from the pair')
  t.equal(columnName('html_lawbox'), 'html_partner_a')
  t.equal(normalizeValue('1999-12-31 23:59:59-05'), '1999-12-31T23:59:59-05:00')
  t.equal(normalizeValue('1999-12-31'), '1999-12-31')
})

t.test('bad rows go to the dead-letter file with line and reason; their neighbours are kept', async (t) => {
  const { rows, dead } = await readAll(FIXTURES)
  t.same(rows.filter((r) => r.resource === 'dockets').map((r) => r.record.id), ['1', '2', '3', '6', '7'], 'rows the CSV layer can read (3 and 6 are refused later, by type)')
  t.same(dead.map((d) => d.line).sort(), [6, 7, 8])
  t.match(dead.find((d) => d.line === 6), { file: 'dockets-2024-08-31.csv', reason: 'expected 10 columns, found 11' })
  t.match(dead.find((d) => d.line === 7), { reason: /Invalid Closing Quote/ })
  t.match(dead.find((d) => d.line === 8), { reason: 'row has no id' })
})

t.test('a large file streams through', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bulk-big-'))
  const out = createWriteStream(path.join(dir, 'citations-2024-08-31.csv'))
  out.write('id,volume,reporter,page,type,cluster_id,date_created,date_modified\n')
  const N = 200_000
  for (let i = 1; i <= N; i++) out.write(`\`${i}\`,\`${i % 900}\`,\`F.3d\`,\`${i}\`,\`1\`,\`${i}\`,\`2024-01-01 00:00:00+00\`,\`2024-01-01 00:00:00+00\`\n`)
  await new Promise((r) => out.end(r))
  let n = 0
  for await (const r of readBulkDir(dir, { deadLetterPath: path.join(dir, 'dead.jsonl') })) { if (r.resource === 'citations') n++ }
  t.equal(n, N)
  writeFileSync(path.join(dir, 'ignored.txt'), 'not csv')
  t.same(listBulkFiles(dir).files.length, 1)
})
