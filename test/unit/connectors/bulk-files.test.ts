import t from 'tap'
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { listBulkFiles, scanBulkDir, resourceOf, tableOf, resolveBulkInputs } from '../../../connectors/bulk/files.js'
import { BULK_TABLES } from '../../../connectors/bulk/tables.js'
import { projectFile } from '../../../core/programs.js'

const DUMP = projectFile('test/fixtures/bulk/dump/')

t.test('resource from the file name', async (t) => {
  const cases: [string, string | undefined][] = [
    ['courts-2024-05-06.csv.bz2', 'courts'],
    ['dockets-2024-05-06.csv.bz2', 'dockets'],
    ['search_docket-2024-05-06.csv.bz2', 'dockets'],
    ['opinion-clusters-2024-05-06.csv.bz2', 'clusters'],
    ['opinions-2024-05-06.csv', 'opinions'],
    ['citations-2024-05-06.csv.bz2', 'citations'],
    ['citation-map-2024-05-06.csv.bz2', 'opinions-cited'],
    ['people-db-people-2024-05-06.csv.bz2', 'people'],
    ['people-db-positions-2024-05-06.csv.bz2', 'positions'],
    ['people-db-schools-2024-05-06.csv.bz2', 'schools'],
    ['people-db-educations-2024-05-06.csv.bz2', 'educations'],
    ['people-db-political-affiliations-2024-05-06.csv.bz2', 'political-affiliations'],
    ['people-db-retention-events-2024-05-06.csv.bz2', 'retention-events'],
    ['oral-arguments-2024-05-06.csv.bz2', 'audio'],
    ['/some/dir/opinions.csv', 'opinions'],
    ['people-db-races-2024-05-06.csv.bz2', 'people'],
    ['people_db_race-2024-05-06.csv.bz2', 'races'],
    ['financial-disclosures-2024-05-06.csv.bz2', 'financial-disclosures'],
    ['financial-disclosures-debts-2024-05-06.csv.bz2', 'debts'],
    ['court-appeals-to-2024-05-06.csv.bz2', 'courts'],
    ['search_opinioncluster_panel-2024-05-06.csv.bz2', 'clusters'],
    ['parentheticals-2024-05-06.csv.bz2', 'parentheticals'],
    ['unmatched-citations-2024-05-06.csv.bz2', 'unmatched-citations'],
    ['courthouses-2024-05-06.csv.bz2', 'courthouses'],
    ['search_unknown-2024-05-06.csv', undefined],
    ['schema-2024-05-06.sql', undefined],
  ]
  for (const [name, want] of cases) t.equal(resourceOf(name), want, name)
  t.equal(tableOf('opinion-clusters-2024-08-31.csv.bz2'), 'opinion-clusters')
  t.equal(tableOf('people-db-people-2024-08-31.csv'), 'people-db-people')
})

t.test('every one of the reference\'s 33 files is known, by its file name and by its table name', async (t) => {
  t.equal(BULK_TABLES.length, 33)
  for (const table of BULK_TABLES) {
    t.equal(resourceOf(`${table.file}-2025-03-31.csv.bz2`), table.target.resource, table.file)
    t.equal(resourceOf(`${table.table}-2025-03-31.csv`), table.target.resource, table.table)
  }
})

t.test('order: code table, then link tables, then rows by dependency; files holding none of our resources are reported', async (t) => {
  t.same(listBulkFiles(DUMP).map((f) => [path.basename(f.path), f.resource]), [
    ['people-db-races-2024-08-31.csv', 'people'],
    ['courts-2024-08-31.csv', 'courts'],
    ['people-db-schools-2024-08-31.csv', 'schools'],
    ['people-db-people-2024-08-31.csv', 'people'],
    ['people-db-positions-2024-08-31.csv', 'positions'],
    ['search_docket-2024-08-31.csv', 'dockets'],
    ['opinion-clusters-2024-08-31.csv', 'clusters'],
    ['citations-2024-08-31.csv', 'citations'],
    ['opinions-2024-08-31.csv', 'opinions'],
    ['citation-map-2024-08-31.csv.bz2', 'opinions-cited'],
    ['financial-disclosures-2024-08-31.csv', 'financial-disclosures'],
  ])
  t.same(scanBulkDir(DUMP).skipped, [])
  const mixed = mkdtempSync(path.join(tmpdir(), 'bulk-order-'))
  t.teardown(() => rmSync(mixed, { recursive: true, force: true }))
  for (const n of ['opinions-2025-03-31.csv', 'search_opinion_joined_by-2025-03-31.csv', 'people_db_race-2025-03-31.csv', 'people-db-people-2025-03-31.csv', 'people-db-races-2025-03-31.csv', 'search_unknown-2025-03-31.csv'])
    writeFileSync(path.join(mixed, n), '')
  const { files, skipped } = resolveBulkInputs([mixed])
  t.same(files.map((f) => path.basename(f.path)), [
    'people_db_race-2025-03-31.csv', 'people-db-races-2025-03-31.csv', 'search_opinion_joined_by-2025-03-31.csv', 'people-db-people-2025-03-31.csv', 'opinions-2025-03-31.csv',
  ], 'races before the links that translate through them, links before the rows they join into')
  t.same(skipped, ['search_unknown-2025-03-31.csv'])
  t.same(resolveBulkInputs([path.join(mixed, 'opinions-2025-03-31.csv'), mixed]).files.length, 5, 'a file named twice (alone and in its folder) is read once')
})

t.test('several snapshots of one table: oldest first; folders and other files ignored', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bulk-files-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  for (const n of ['opinions-2024-09-30.csv', 'search_docket-2024-09-30.csv', 'dockets-2024-08-31.csv.bz2', 'opinions-2024-08-31.csv.bz2', 'notes.txt'])
    writeFileSync(path.join(dir, n), '')
  mkdirSync(path.join(dir, 'courts-2024-08-31.csv'))
  t.same(listBulkFiles(dir).map((f) => path.basename(f.path)), [
    'dockets-2024-08-31.csv.bz2', 'search_docket-2024-09-30.csv', 'opinions-2024-08-31.csv.bz2', 'opinions-2024-09-30.csv',
  ])
})
