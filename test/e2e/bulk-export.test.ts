/**
 * `lds export bulk` against the real pipeline and a real PostgreSQL 15: records with hostile
 * values go through the topics and the table sink; the reference-csv export loads, file by file,
 * with exactly the reference's own `\COPY` into the tables of `referenceSchemaSql`; the values read
 * back equal what was published (NULL and '' apart), and PostgreSQL's own `COPY … TO` of what it
 * loaded is byte for byte our file. Two exports give identical files; Parquet and JSON lines
 * exports have the rows, and JSON lines published into a fresh stack give the same rows back.
 */
import t, { type Test } from 'tap'
import { spawn, execFileSync } from 'node:child_process'
import { createReadStream, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { chmodSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { testStack, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, type Runtime } from '../../bin/runtime.js'
import { publishLines } from '../../bin/commands/publish.js'
import { exportBulk, type Manifest } from '../../connectors/bulk/export/index.js'
import { BULK_TABLES, bulkTableNamed, unstoredColumns, type BulkTable } from '../../connectors/bulk/tables.js'
import { referenceSchemaSql, referenceCopyCommand } from '../../connectors/bulk/pg-schema.js'
import { sql, ident } from '../../core/sql.js'
import { cellSql } from '../../connectors/bulk/export/queries.js'
import { pgCsvCell } from '../../connectors/bulk/export/pg-text.js'
import { startPostgres, PG_BIN, type LocalPostgres } from '../../bench/lib/postgres.js'

const HOSTILE = 'He said "hi", then \\ left;\r\nnew line\n`tick` ``double`` \'single\' é ✓ 𝄞 ,comma, \\N \\\\ end\\'
const LONG = ('a "long" text, \\ with\nlines; ' + 'ø'.repeat(50)).repeat(2_000)
const DOT_LINE = 'before\n\\.\nafter'
const TS = '2025-03-05T06:07:08.654321+00:00'

const RECORDS: Record<string, Record<string, unknown>[]> = {
  races: [{ id: 1, race: 'w' }, { id: 2, race: 'b' }, { id: 7, race: 'h' }],
  courts: [
    { id: 'scotus', full_name: 'Supreme "Court" \\ of the U.S.', short_name: '', position: 1.5, in_use: true, jurisdiction: 'F', date_modified: TS, start_date: '1789-09-24', records_court_id: null, appeals_to_ids: [] },
    { id: 'ca1', full_name: HOSTILE, short_name: 'First Cir.', position: 123456789012345.6, in_use: false, jurisdiction: 'F', date_modified: '2025-03-05T06:07:00+00:00', end_date: null, records_has_rss_feed: true, appeals_to_ids: ['scotus'], parent_court_id: 'scotus' },
  ],
  people: [
    { id: 10, name_first: 'Ann "A"', name_last: 'O\'Neil\\', slug: 'ann', race: ['w', 'h'], ftm_eid: null, ftm_total_received: 1e-5, date_dob: '1950-01-02', has_photo: true, date_completed: '2025-03-05T06:07:08.65Z', date_created: TS, date_modified: TS },
    { id: 11, name_first: '', name_last: DOT_LINE, slug: 'b', race: ['b', 'o'], ftm_eid: '', ftm_total_received: 1e20, date_dob: null, has_photo: false, date_created: TS, date_modified: TS },
    { id: 12, name_first: 'C', name_last: 'D', slug: 'c', race: [], ftm_total_received: null, is_alias_of_id: 10, date_created: TS, date_modified: TS },
  ],
  dockets: [
    { id: 100, court_id: 'ca1', source: 2, case_name: HOSTILE, docket_number: null, case_name_full: LONG, date_filed: '2020-02-29', blocked: true, date_created: TS, date_modified: TS },
    { id: 101, court_id: 'scotus', source: 0, case_name: DOT_LINE, docket_number: '', case_name_full: '', date_filed: null, ia_needs_upload: null, date_created: TS, date_modified: TS },
  ],
  clusters: [
    { id: 200, docket_id: 100, panel_ids: [11, 10], non_participating_judges_ids: [12], case_name: HOSTILE, date_filed: '2020-02-29', judges: LONG, slug: '', citation_count: 3, date_created: TS, date_modified: TS },
    { id: 201, docket_id: 101, panel_ids: [], non_participating_judges_ids: [], case_name: '', date_filed: '', slug: null, date_created: TS, date_modified: TS },
  ],
  opinions: [
    { id: 300, cluster_id: 200, joined_by_ids: [10, 11], plain_text: LONG + HOSTILE, author_id: 10, per_curiam: false, page_count: null, download_url: '', html_partner_a: '<p class="x">\\</p>', date_created: TS, date_modified: TS },
    { id: 301, cluster_id: 200, joined_by_ids: [11], plain_text: '', author_id: null, per_curiam: true, page_count: 0, download_url: null, date_created: TS, date_modified: TS },
  ],
  parentheticals: [
    { id: 400, described_opinion_id: 300, describing_opinion_id: 301, text: 'holding that "x" \\ y', score: 0.1, group_id: 5 },
    { id: 401, described_opinion_id: 300, describing_opinion_id: 301, text: '', score: 123456789012345.6, group_id: null },
    { id: 402, described_opinion_id: 301, describing_opinion_id: 300, text: HOSTILE, score: 1.5e-7 },
    { id: 403, described_opinion_id: 301, describing_opinion_id: 300, text: 'neg', score: -2.5e-300 },
  ],
}

/** Rows each table's file must have. */
const EXPECTED_ROWS: Record<string, number> = {
  people_db_person: 3, people_db_race: 3, search_court: 2, search_docket: 2, search_opinioncluster: 2,
  search_opinioncluster_panel: 2, search_opinioncluster_non_participating_judges: 1, search_opinion: 2,
  search_opinion_joined_by: 3, search_court_appeals_to: 1, search_parenthetical: 4, people_db_person_race: 3,
}

async function publishAll(rt: Runtime, records: Record<string, Record<string, unknown>[]>) {
  for (const [resource, rows] of Object.entries(records)) {
    const report = await publishLines(rt, resource, Readable.from(rows.map((r) => JSON.stringify(r) + '\n')))
    if (report.refused.length) throw new Error(`${resource} refused: ${JSON.stringify(report.refused)}`)
  }
}

async function waitApplied(rt: Runtime, counts: Record<string, number>) {
  for (const [resource, n] of Object.entries(counts)) {
    const table = rt.catalogue.get(resource).table
    await waitFor(async () => (await countFinal(rt, table)) === n, `${n} rows of ${resource}`, 60_000)
  }
}

/** psql's output as bytes (COPY … TO STDOUT of the whole table). */
function psqlBytes(pg: LocalPostgres, sqlText: string, flags: string[] = []): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn(path.join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-X', '-q', ...flags, '-c', sqlText], { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let err = ''
    p.stdout.on('data', (d: Buffer) => out.push(d))
    p.stderr.on('data', (d) => { err += d })
    p.once('error', reject)
    p.once('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`psql failed: ${err}`))))
  })
}

/** Rows of a table as JSON, by id. */
async function pgRows(pg: LocalPostgres, table: string): Promise<Record<string, unknown>[]> {
  const out = await psqlBytes(pg, `SELECT coalesce(json_agg(t ORDER BY id), '[]') FROM ${table} t`, ['-A', '-t'])
  return JSON.parse(out.toString('utf8'))
}

const csvOf = (dir: string, m: Manifest, table: string) => path.join(dir, m.files.find((f) => f.table === table)!.name)

// Two stacks, a PostgreSQL and a dozen exports on a shared machine: more than the default file timeout.
t.setTimeout(900_000)

t.test('bulk export', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  await publishAll(rt, RECORDS)
  const counts = Object.fromEntries(Object.entries(RECORDS).map(([r, rows]) => [r, rows.length]))
  await waitApplied(rt, counts)
  await t.test('reference CSV loads into PostgreSQL 15 with the reference\'s command, values intact', (t) => referenceCsv(t, rt))
  await t.test('Parquet and JSON lines', (t) => parquetAndJsonl(t, rt, counts))
})

async function referenceCsv(t: Test, rt: Runtime) {
  const base = mkdtempSync(path.join(tmpdir(), 'bulk-export-'))
  chmodSync(base, 0o755) // PostgreSQL runs as its own user
  const [dirA, dirB] = [path.join(base, 'a'), path.join(base, 'b')]
  const a = await exportBulk(rt.db, dirA, { date: '2026-01-02' })
  const b = await exportBulk(rt.db, dirB, { date: '2026-01-02' })
  t.equal(a.files.length, 33, 'all 33 tables')
  t.same(a.files.map((f) => f.table), BULK_TABLES.map((x) => x.table), 'in the export order')
  t.ok(a.files.every((f) => /^[a-z0-9_-]+-2026-01-02\.csv\.bz2$/.test(f.name)), 'named <file>-<date>.csv.bz2')
  t.same(b.files.map((f) => [f.name, f.sha256, f.bytes]), a.files.map((f) => [f.name, f.sha256, f.bytes]), 'two exports: byte-identical files')
  for (const [table, n] of Object.entries(EXPECTED_ROWS)) t.equal(a.files.find((f) => f.table === table)!.rows, n, `${table}: ${n} rows`)
  t.equal(a.files.filter((f) => !(f.table in EXPECTED_ROWS)).reduce((s, f) => s + f.rows, 0), 0, 'the other tables are empty')
  t.equal(a.files.find((f) => f.table === 'people_db_person_race')!.unmapped, 1, 'a race code without a race row is counted as unmapped')
  t.ok(existsSync(path.join(dirA, 'schema.sql')) && existsSync(path.join(dirA, 'manifest.json')), 'schema.sql and manifest.json beside the files')
  t.same(JSON.parse(readFileSync(path.join(dirA, 'manifest.json'), 'utf8')).files, a.files, 'manifest.json is the manifest')

  // Decompressed, the CSV as COPY writes it.
  const csv = (table: string) => execFileSync('bzip2', ['-dc', csvOf(dirA, a, table)], { maxBuffer: 1 << 28 })
  const courts = csv('search_court').toString('utf8')
  t.equal(courts.split('\n')[0], BULK_TABLES.find((x) => x.table === 'search_court')!.columns.join(','), 'unquoted header of the reference\'s columns')
  t.match(courts, '"ca1",,"t",', 'NULL is empty and unquoted; booleans t/f')
  t.match(courts, '"2025-03-05 06:07:00+00"', 'a timestamp without fraction')
  t.match(courts, '"123456789012345.6"', 'floats as PostgreSQL prints them')
  t.match(csv('search_court_appeals_to').toString(), 'id,from_court_id,to_court_id\n"1","ca1","scotus"\n')
  t.equal(csv('search_opinioncluster_panel').toString(), 'id,opinioncluster_id,person_id\n"1","200","11"\n"2","200","10"\n', 'link rows by parent, then position, numbered')
  t.equal(csv('people_db_person_race').toString(), 'id,person_id,race_id\n"1","10","1"\n"2","10","7"\n"3","11","2"\n', 'race codes back to race ids')
  t.match(csv('people_db_person').toString(), '"Ann \\"A\\"","","O\'Neil\\\\"', 'quotes and backslashes escaped with a backslash')

  // A real PostgreSQL 15, the published schema, the reference's own load command for every file.
  const pg = await startPostgres({ dir: path.join(base, 'pg'), log: (m) => t.comment(m) })
  t.teardown(() => pg.stop())
  await pg.psql(readFileSync(path.join(dirA, 'schema.sql'), 'utf8'))
  for (const f of a.files) {
    const table = bulkTableNamed(f.table) as BulkTable
    const plain = path.join(base, f.name.replace(/\.bz2$/, ''))
    writeFileSync(plain, execFileSync('bzip2', ['-dc', path.join(dirA, f.name)], { maxBuffer: 1 << 28 }))
    await pg.psql(referenceCopyCommand(table, plain))
    // What PostgreSQL writes of what it loaded is our file, byte for byte.
    const copyOut = await psqlBytes(pg, `COPY ${table.table} (${table.columns.join(', ')}) TO STDOUT WITH (FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\\', FORCE_QUOTE *)`)
    t.ok(copyOut.equals(readFileSync(plain)), `${f.table}: loads, and PostgreSQL's COPY TO gives the same ${f.rows} rows byte for byte`)
  }
  for (const [table, n] of Object.entries(EXPECTED_ROWS)) t.equal(Number((await pg.psql(`SELECT count(*) FROM ${table}`)).trim()), n, `${table}: ${n} rows in PostgreSQL`)

  // The values read back equal what was published.
  const people = await pgRows(pg, 'people_db_person')
  t.same(people.map((p) => [p.id, p.name_first, p.name_last, p.ftm_eid, p.ftm_total_received, p.date_dob, p.has_photo, p.date_completed, p.is_alias_of_id]), [
    [10, 'Ann "A"', 'O\'Neil\\', null, 1e-5, '1950-01-02', true, '2025-03-05T06:07:08.65+00:00', null],
    [11, '', DOT_LINE, '', 1e20, null, false, null, null],
    [12, 'C', 'D', null, null, null, false, null, 10],
  ], 'people: NULL vs empty, floats, dates, timestamps, a line that is \\. alone')
  const courtRows = await pgRows(pg, 'search_court')
  t.same(courtRows.map((c) => [c.id, c.full_name, c.short_name, c.position, c.in_use, c.date_modified, c.pacer_court_id, c.pacer_has_rss_feed, c.start_date, c.end_date, c.parent_court_id]), [
    ['ca1', HOSTILE, 'First Cir.', 123456789012345.6, false, '2025-03-05T06:07:00+00:00', null, true, null, null, 'scotus'],
    ['scotus', 'Supreme "Court" \\ of the U.S.', '', 1.5, true, '2025-03-05T06:07:08.654321+00:00', null, null, '1789-09-24', null, null],
  ], 'courts: CR/LF, quotes, backslashes, backticks, unicode; storage names back to the database\'s')
  const dockets = await pgRows(pg, 'search_docket')
  t.same(dockets.map((d) => [d.id, d.court_id, d.case_name, d.docket_number, d.case_name_full, d.date_filed, d.blocked, d.ia_needs_upload, d.source]), [
    [100, 'ca1', HOSTILE, null, LONG, '2020-02-29', true, null, 2],
    [101, 'scotus', DOT_LINE, '', '', null, false, null, 0],
  ], 'dockets: a long text, NULL vs empty')
  const unstored = unstoredColumns(bulkTableNamed('search_docket')!)
  t.same(dockets.map((d) => unstored.map((c) => d[c])), dockets.map(() => unstored.map(() => null)), `columns the service does not store are NULL (${unstored.join(', ')})`)
  const clusters = await pgRows(pg, 'search_opinioncluster')
  t.same(clusters.map((c) => [c.id, c.docket_id, c.case_name, c.date_filed, c.judges, c.slug, c.citation_count]), [
    [200, 100, HOSTILE, '2020-02-29', LONG, '', 3], [201, 101, '', null, '', null, 0],
  ], 'clusters: an empty date is NULL')
  const opinions = await pgRows(pg, 'search_opinion')
  t.same(opinions.map((o) => [o.id, o.cluster_id, o.plain_text, o.author_id, o.per_curiam, o.page_count, o.download_url, o.html_lawbox]), [
    [300, 200, LONG + HOSTILE, 10, false, null, '', '<p class="x">\\</p>'],
    [301, 200, '', null, true, 0, null, ''],
  ], 'opinions')
  t.same((await pgRows(pg, 'search_opinion_joined_by')).map((r) => [r.id, r.opinion_id, r.person_id]), [[1, 300, 10], [2, 300, 11], [3, 301, 11]], 'joined_by links')
  t.same((await pgRows(pg, 'search_opinioncluster_non_participating_judges')).map((r) => [r.id, r.opinioncluster_id, r.person_id]), [[1, 200, 12]])
  t.same((await pgRows(pg, 'people_db_race')).map((r) => [r.id, r.race]), [[1, 'w'], [2, 'b'], [7, 'h']], 'the races table')
  t.same((await pgRows(pg, 'search_parenthetical')).map((r) => [r.id, r.text, r.score, r.group_id]), [
    [400, 'holding that "x" \\ y', 0.1, 5], [401, '', 123456789012345.6, null], [402, HOSTILE, 1.5e-7, null], [403, 'neg', -2.5e-300, null],
  ], 'parentheticals: floats of every magnitude')

  // Float text over thousands of doubles of every magnitude: the SQL layout is the TypeScript one, and PostgreSQL prints each back the same.
  const xs = sql`arrayConcat(arrayMap(i -> reinterpretAsFloat64(cityHash64(i)), range(3000)), arrayMap(i -> cityHash64(i, 1) / pow(10, i % 25), range(1000)),
    arrayMap(i -> round(i / 7, i % 10), range(1000)), arrayMap(i -> pow(10, i - 330), range(640)), arrayMap(i -> -pow(2, i - 60) / 3, range(120)))`
  const floats = await rt.db.query<{ bits: string; cell: string }>(sql`SELECT toString(reinterpretAsUInt64(x)) AS bits, ${cellSql('float', sql`x`, false)} AS cell FROM (SELECT arrayJoin(${xs}) AS x) WHERE isFinite(x)`)
  const view = new DataView(new ArrayBuffer(8))
  const mismatched = floats.filter((f) => { view.setBigUint64(0, BigInt(f.bits)); return f.cell !== pgCsvCell('float', view.getFloat64(0)) })
  t.same(mismatched.slice(0, 5), [], `${floats.length} doubles: ClickHouse's cells are pgFloatText's`)
  await pg.psql('CREATE TABLE float_texts (t text)')
  await pg.psql('COPY float_texts FROM STDIN', Readable.from([floats.map((f) => f.cell.slice(1, -1)).join('\n') + '\n']))
  t.equal((await pg.psql('SELECT count(*) FROM float_texts WHERE t::float8::text <> t')).trim(), '0', 'PostgreSQL prints every one of them back the same')

  // --resources takes file, table or resource names.
  const some = await exportBulk(rt.db, path.join(base, 'some'), { date: '2026-01-02', resources: ['opinions', 'courts'] })
  t.same(some.files.map((f) => f.table), ['search_court', 'search_opinion', 'search_opinion_joined_by', 'search_court_appeals_to'], '--resources opinions,courts')
  t.same(some.files.map((f) => f.sha256), some.files.map((f) => a.files.find((x) => x.name === f.name)!.sha256), 'the same files as in the full export')
}

async function parquetAndJsonl(t: Test, rt: Runtime, counts: Record<string, number>) {
  const base = mkdtempSync(path.join(tmpdir(), 'bulk-export-'))

  const pq = await exportBulk(rt.db, path.join(base, 'pq'), { format: 'parquet' })
  t.equal(pq.files.length, 33)
  t.ok(pq.files.every((f) => f.name.endsWith('.parquet') && readFileSync(path.join(base, 'pq', f.name)).subarray(0, 4).toString() === 'PAR1'), 'Parquet files')
  for (const f of pq.files) t.equal(f.rows, EXPECTED_ROWS[f.table] ?? 0, `${f.name}: ${f.rows} rows`)
  // Types and NULLs as ClickHouse reads the file back.
  const back = `pq_back_${Date.now()}`
  await rt.db.command(sql`CREATE TABLE ${ident(back)} (id Int64, ftm_eid Nullable(String), date_dob Nullable(String), has_photo Nullable(Bool), ftm_total_received Nullable(Float64), date_completed Nullable(DateTime64(6, 'UTC'))) ENGINE = Memory`)
  await rt.db.client.insert({ table: `${rt.db.database}.${back}`, values: createReadStream(path.join(base, 'pq', 'people-db-people.parquet')), format: 'Parquet' })
  const rows = await rt.db.query<Record<string, unknown>>(sql`SELECT * FROM ${ident(back)} ORDER BY id`)
  t.same(rows.map((r) => [Number(r.id), r.ftm_eid, r.date_dob, r.has_photo, r.ftm_total_received, r.date_completed]), [
    [10, null, '1950-01-02', true, 1e-5, '2025-03-05T06:07:08.650000Z'], [11, '', null, false, 1e20, null], [12, null, null, false, null, null],
  ], 'Parquet keeps types and NULLs (an empty date is NULL)')

  const jl = await exportBulk(rt.db, path.join(base, 'jl'), { format: 'jsonl' })
  const byResource = Object.fromEntries(jl.files.map((f) => [f.resource, f.rows]))
  for (const [r, n] of Object.entries(counts)) t.equal(byResource[r], n, `${r}.jsonl: ${n} lines`)

  // Published into a fresh stack, the lines give the same rows: exported again, the same bytes.
  const rt2 = await testStack(t)
  const streams2 = await startProcessors(rt2)
  t.teardown(() => Promise.all(streams2.map((s) => s.stop())))
  for (const f of jl.files) {
    if (!f.rows) continue
    const report = await publishLines(rt2, f.resource, createReadStream(path.join(base, 'jl', f.name)))
    t.same(report.refused, [], `${f.name}: every line accepted`)
    t.equal(report.published, f.rows)
  }
  await waitApplied(rt2, counts)
  const jl2 = await exportBulk(rt2.db, path.join(base, 'jl2'), { format: 'jsonl' })
  t.same(jl2.files.map((f) => [f.name, f.rows, f.sha256]), jl.files.map((f) => [f.name, f.rows, f.sha256]), 'the same rows read back from the fresh stack')
  const csv1 = await exportBulk(rt.db, path.join(base, 'c1'), { date: '2026-01-02', resources: ['people', 'opinions'] })
  const csv2 = await exportBulk(rt2.db, path.join(base, 'c2'), { date: '2026-01-02', resources: ['people', 'opinions'] })
  t.same(csv2.files.map((f) => f.sha256), csv1.files.map((f) => f.sha256), 'and the same reference CSV (people, opinions and their links)')
}
