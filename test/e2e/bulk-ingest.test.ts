/**
 * `lds ingest bulk` as a user runs it on the reference's current files: link tables joined into
 * their parents, a second snapshot as an update, --prune, bad files beside good ones, and a run
 * killed mid-file and started again.
 */
import t from 'tap'
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testStack, waitFor, countFinal } from '../helpers/stack.js'
import { writeBulkFile } from '../helpers/bulk-csv.js'
import { startProcessors, type Runtime } from '../../bin/runtime.js'
import { ingestBulk } from '../../bin/commands/ingest-bulk.js'
import { sql, ident } from '../../core/sql.js'
import { PROJECT_ROOT } from '../../core/config.js'
import { programArgs } from '../../core/programs.js'

const TS = '2025-03-05 06:07:08.654321+00'
const dirs: string[] = []
const tmp = () => { const d = mkdtempSync(path.join(tmpdir(), 'bulk-ingest-')); dirs.push(d); return d }
t.teardown(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

async function rows<T>(rt: Runtime, table: string, columns: string, order = 'id'): Promise<T[]> {
  return rt.db.query<T>(sql`SELECT * FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident(table)} FINAL ORDER BY ${ident(order)}`, { settings: { output_format_json_quote_64bit_integers: 0 } })
    .then((all) => all.map((r) => Object.fromEntries(['id', ...columns.split(',').map((c) => c.trim())].map((c) => [c, (r as Record<string, unknown>)[c]])) as T))
}
const ingest = (rt: Runtime, inputs: string | string[], opts: Parameters<typeof ingestBulk>[2] = {}) =>
  ingestBulk(rt, inputs, { progress: false, deadLetterPath: path.join(tmp(), 'dead.jsonl'), ...opts })

const PEOPLE = ['id', 'date_created', 'date_modified', 'slug', 'name_first', 'name_last']
const CLUSTERS = ['id', 'date_created', 'date_modified', 'case_name', 'date_filed', 'docket_id']
const DOCKETS = ['id', 'date_created', 'date_modified', 'source', 'case_name', 'court_id']

t.test('link tables become the relations the API shows; a later snapshot updates', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const dir = tmp()
  writeBulkFile(dir, 'people_db_race-2025-03-31.csv', ['id', 'race'], [[1, 'w'], [2, 'b'], [3, 'h']])
  writeBulkFile(dir, 'people-db-people-2025-03-31.csv', PEOPLE, [[42, TS, TS, 'ann-a', 'Ann', 'A'], [43, TS, TS, 'bo-b', 'Bo', 'B']])
  writeBulkFile(dir, 'people-db-races-2025-03-31.csv.bz2', ['id', 'person_id', 'race_id'], [[1, 42, 2], [2, 42, 1], [3, 43, 3]])
  writeBulkFile(dir, 'courts-2025-03-31.csv', ['id', 'full_name', 'short_name', 'position', 'jurisdiction', 'in_use'], [['scotus', 'Supreme Court', 'SCOTUS', 1, 'F', true], ['ca9', 'Ninth Circuit', '9th Cir.', 2, 'F', true]])
  writeBulkFile(dir, 'court-appeals-to-2025-03-31.csv', ['id', 'from_court_id', 'to_court_id'], [[1, 'ca9', 'scotus']])
  writeBulkFile(dir, 'dockets-2025-03-31.csv', DOCKETS, [[7, TS, TS, 1, 'A v. B', 'ca9']])
  writeBulkFile(dir, 'opinion-clusters-2025-03-31.csv', CLUSTERS, [[100, TS, TS, 'A v. B', '2020-01-02', 7], [101, TS, TS, 'C v. D', '2020-01-03', 7]])
  writeBulkFile(dir, 'search_opinioncluster_panel-2025-03-31.csv', ['id', 'opinioncluster_id', 'person_id'], [[1, 100, 42], [2, 100, 43]])
  writeBulkFile(dir, 'search_opinioncluster_non_participating_judges-2025-03-31.csv', ['id', 'opinioncluster_id', 'person_id'], [[1, 101, 43]])
  writeBulkFile(dir, 'opinions-2025-03-31.csv', ['id', 'date_created', 'date_modified', 'type', 'plain_text', 'cluster_id'], [[500, TS, TS, '010combined', 'Text "with" \\ quotes', 100]])
  writeBulkFile(dir, 'search_opinion_joined_by-2025-03-31.csv', ['id', 'opinion_id', 'person_id'], [[1, 500, 43]])
  const s = await ingest(rt, dir)
  t.equal(s.refused, 0)
  t.equal(s.failedFiles, 0)
  t.same(s.files.map((f) => f.dialect), s.files.map(() => 'backslash'), 'every file read as the current format')
  t.same(s.byResource, { races: 3, people: 2, courts: 2, dockets: 1, clusters: 2, opinions: 1 })

  await waitFor(async () => (await countFinal(rt, 'opinions')) === 1 && (await countFinal(rt, 'clusters')) === 2, 'opinions and clusters applied')
  t.same(await rows(rt, 'people', 'race'), [{ id: 42, race: ['b', 'w'] }, { id: 43, race: ['h'] }], 'race ids translated through people_db_race')
  t.same(await rows(rt, 'clusters', 'panel_ids, non_participating_judges_ids'), [
    { id: 100, panel_ids: [42, 43], non_participating_judges_ids: [] }, { id: 101, panel_ids: [], non_participating_judges_ids: [43] },
  ])
  t.same(await rows(rt, 'courts', 'appeals_to_ids'), [{ id: 'ca9', appeals_to_ids: ['scotus'] }, { id: 'scotus', appeals_to_ids: [] }])
  t.same(await rows(rt, 'opinions', 'joined_by_ids, plain_text'), [{ id: 500, joined_by_ids: [43], plain_text: 'Text "with" \\ quotes' }])

  // A later snapshot of clusters alone: its rows are updated, the panel the run does not carry is kept.
  const later = tmp()
  writeBulkFile(later, 'opinion-clusters-2025-06-30.csv', CLUSTERS, [[100, TS, TS, 'A v. B (renamed)', '2020-01-02', 7]])
  await ingest(rt, later)
  await waitFor(async () => (await rows<{ case_name: string }>(rt, 'clusters', 'case_name'))[0].case_name === 'A v. B (renamed)', 'the update applied')
  t.same(await rows(rt, 'clusters', 'case_name, panel_ids'), [
    { id: 100, case_name: 'A v. B (renamed)', panel_ids: [42, 43] }, { id: 101, case_name: 'C v. D', panel_ids: [] },
  ], 'same id, new version, nothing duplicated; links kept')
  t.equal((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(rt.cfg.clickhouseDatabase)}.clusters FINAL WHERE id = 100`))[0].n, 1)

  // A panel file alone: the parents it names get their new panel, and those it no longer names lose theirs.
  const links = tmp()
  writeBulkFile(links, 'search_opinioncluster_panel-2025-09-30.csv', ['id', 'opinioncluster_id', 'person_id'], [[1, 101, 42]])
  const l = await ingest(rt, links)
  t.equal(l.refused, 0)
  await waitFor(async () => JSON.stringify(await rows(rt, 'clusters', 'panel_ids')) === JSON.stringify([{ id: 100, panel_ids: [] }, { id: 101, panel_ids: [42] }]), 'the panel file applied alone')
  t.same(await rows(rt, 'clusters', 'case_name, non_participating_judges_ids'), [
    { id: 100, case_name: 'A v. B (renamed)', non_participating_judges_ids: [] }, { id: 101, case_name: 'C v. D', non_participating_judges_ids: [43] },
  ], 'the rest of each cluster is as it was')
})

t.test('--prune deletes what a full snapshot no longer holds; without it nothing is deleted', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const first = tmp()
  writeBulkFile(first, 'dockets-2025-03-31.csv', DOCKETS, [[1, TS, TS, 1, 'One', 'scotus'], [2, TS, TS, 1, 'Two', 'scotus'], [3, TS, TS, 1, 'Three', 'scotus']])
  await ingest(rt, first)
  await waitFor(async () => (await countFinal(rt, 'dockets')) === 3, 'three dockets')
  const second = tmp()
  writeBulkFile(second, 'dockets-2025-06-30.csv', DOCKETS, [[1, TS, TS, 1, 'One', 'scotus'], [3, TS, TS, 1, 'Three', 'scotus']])
  const kept = await ingest(rt, second)
  t.same(kept.deleted, {})
  const pruned = await ingest(rt, second, { prune: true })
  t.same(pruned.deleted, { dockets: 1 })
  await waitFor(async () => (await countFinal(rt, 'dockets')) === 2, 'docket 2 deleted')
  t.same((await rows(rt, 'dockets', 'case_name')).map((r) => (r as { id: number }).id), [1, 3])
})

t.test('a bad file is one line naming it; the other files still load', async (t) => {
  const rt = await testStack(t)
  const dir = tmp()
  writeBulkFile(dir, 'dockets-2025-03-31.csv', DOCKETS, [[1, TS, TS, 1, 'One', 'scotus']])
  const bz = writeBulkFile(dir, 'opinion-clusters-2025-03-31.csv.bz2', CLUSTERS, Array.from({ length: 2000 }, (_, i) => [i + 1, TS, TS, `Case ${i} `.repeat(20), '2020-01-02', 1]))
  writeFileSync(bz, readFileSync(bz).subarray(0, 3000)) // cut short, as an interrupted download is
  writeBulkFile(dir, 'people-db-people-2025-03-31.csv', ['name', 'slug'], [['x', 'y']]) // another table's header
  writeBulkFile(dir, 'courts-2025-03-31.csv', ['id', 'full_name', 'short_name', 'position', 'jurisdiction'], [['scotus', 'Supreme Court', 'SCOTUS', 1, 'F']])
  const s = await ingest(rt, dir)
  t.equal(s.failedFiles, 2)
  const byFile = Object.fromEntries(s.files.map((f) => [f.file, f]))
  t.match(byFile['opinion-clusters-2025-03-31.csv.bz2'].error, /^opinion-clusters-2025-03-31\.csv\.bz2: l?bzip2 could not decompress/)
  t.match(byFile['people-db-people-2025-03-31.csv'].error, /^people-db-people-2025-03-31\.csv: wrong header for people_db_person: no id column/)
  t.notOk(byFile['opinion-clusters-2025-03-31.csv.bz2'].error!.includes('\n'), 'one line')
  t.same([byFile['dockets-2025-03-31.csv'].rows, byFile['courts-2025-03-31.csv'].rows], [1, 1], 'the good files loaded')
  t.equal(s.byResource.dockets, 1)
})

t.test('a run killed mid-file and started again with the same arguments loses and repeats nothing', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const dir = tmp()
  const N = 30_000
  writeBulkFile(dir, 'dockets-2025-03-31.csv.bz2', DOCKETS, Array.from({ length: N }, (_, i) => [i + 1, TS, TS, 1, `Docket ${i + 1} ${'x'.repeat(200)}`, 'scotus']))
  const env = { ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LDS_DATA_DIR: rt.cfg.dataDir, LOG_LEVEL: 'error' }
  const child = spawn(process.execPath, programArgs('bin/lds-cli.ts', ['ingest', 'bulk', dir, '--checkpoint-every', '2000', '--dead-letters', path.join(dir, 'dead.jsonl')]), { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-4000) })
  let exitCode: number | null | undefined
  const exited = new Promise((resolve) => child.on('exit', (code) => { exitCode = code; resolve(code) }))
  const cpDir = path.join(rt.cfg.dataDir, 'bulk-checkpoints')
  const marked = () => existsSync(cpDir) && readdirSync(cpDir).some((f) => f.endsWith('.json') && /"records":([1-9]\d{3,})/.test(readFileSync(path.join(cpDir, f), 'utf8')))
  // Polled by hand: a first run that ends early fails the test at once, with what it said.
  for (const deadline = Date.now() + 240_000; !marked(); await new Promise((r) => setTimeout(r, 20))) {
    if (exitCode !== undefined) throw new Error(`the first run ended (exit ${exitCode}) before it could be killed: ${stderr}`)
    if (Date.now() > deadline) throw new Error(`no checkpoint of the first run after 240 s: ${stderr}`)
  }
  child.kill('SIGKILL')
  await exited
  const s = await ingest(rt, dir, { checkpointEvery: 2000 })
  t.ok(s.files[0].resumed >= 2000, `the second run resumed after ${s.files[0].resumed} rows`)
  t.equal(s.files[0].resumed + s.files[0].rows, N, 'every row read once by one of the two runs')
  await waitFor(async () => (await countFinal(rt, 'dockets')) === N, `${N} dockets`, 120_000)
  const [r] = await rt.db.query<{ n: number; lo: number; hi: number; named: number }>(sql`SELECT count() AS n, min(id) AS lo, max(id) AS hi, countIf(case_name LIKE 'Docket %') AS named FROM ${ident(rt.cfg.clickhouseDatabase)}.dockets FINAL`)
  t.same([Number(r.n), Number(r.lo), Number(r.hi), Number(r.named)], [N, 1, N, N], 'every docket once, none lost')
  t.notOk(readdirSync(cpDir).some((f) => f.endsWith('.json') && readFileSync(path.join(cpDir, f), 'utf8').includes(dir)), 'the completed run left no checkpoint')
})
