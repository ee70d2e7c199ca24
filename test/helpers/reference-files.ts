/**
 * Real reference bulk files, made by PostgreSQL 15 itself: the 33 tables of the reference's export
 * (DDL from `referenceSchemaSql`), a small deterministic set of rows with hostile values (quotes,
 * backslashes, backticks, commas, CR/LF/CRLF, astral characters, NULL beside '', a ~1 MB text,
 * microsecond and whole-second timestamps, dates of the 1700s) whose keys agree across tables, then
 * each table written by psql's client-side `\COPY … TO` in one of the three formats the reference
 * has used, as `<file>-2025-03-31.csv` (or `.csv.bz2`).
 *
 *   const ref = await startReferenceDb({ log })        // one PostgreSQL for several formats
 *   const files = await ref.write(dir, 'current', { bz2: true })
 *   ref.held                                            // every row as PostgreSQL holds it (JSON)
 *   await ref.loadBack(files)                           // the reference's own \COPY … FROM, compared
 *   await ref.stop()
 *
 * `held` is read back from PostgreSQL (`row_to_json`), so it is exactly what the database kept:
 * timestamps as `2025-03-05T06:07:08.654321+00:00` (UTC session), dates `YYYY-MM-DD`, bigints and
 * doubles as numbers, booleans, NULL as null. `inserted` is what this module asked it to store.
 */
import { spawn, execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnOf, type FieldDef } from '../../schemas/define.js'
import { BULK_TABLES, storageColumn, type BulkTable } from '../../connectors/bulk/tables.js'
import { pgColumns, referenceSchemaSql, referenceCopyCommand } from '../../connectors/bulk/pg-schema.js'
import { startPostgres, PG_BIN, type LocalPostgres } from '../../bench/lib/postgres.js'

export type ReferenceFormat = 'current' | 'backtick' | 'plain'
export const REFERENCE_FORMATS: readonly ReferenceFormat[] = ['current', 'backtick', 'plain']
export const EXPORT_DATE = '2025-03-31'

/** The WITH options of each format's `\COPY … TO` (the reference's export script over the years). */
export const FORMAT_OPTIONS: Readonly<Record<ReferenceFormat, string>> = {
  current: `FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\\', FORCE_QUOTE *`,
  backtick: `FORMAT csv, ENCODING utf8, HEADER, QUOTE '\`', FORCE_QUOTE *`,
  plain: `FORMAT csv, ENCODING utf8, HEADER, FORCE_QUOTE *`,
}

/** The options of the reference's own load command (current format). */
export const REFERENCE_LOAD_OPTIONS = `FORMAT csv, ENCODING utf8, ESCAPE '\\', HEADER`

export type Value = string | number | boolean | null
export type Row = Record<string, Value>
/** Rows of each reference table (by its database name), ordered by id. */
export type Rows = Record<string, Row[]>

export interface WrittenFile { table: string; file: string; path: string; rows: number }

export interface ReferenceDb {
  pg: LocalPostgres
  inserted: Rows
  held: Rows
  /** Writes every table (or the given ones) in a format; bz2 compresses with the bzip2 command. */
  write(dir: string, format: ReferenceFormat, opts?: { bz2?: boolean; tables?: readonly BulkTable[] }): Promise<WrittenFile[]>
  /**
   * Loads files into fresh tables of a new database with the reference's own command
   * (`\COPY … FROM … WITH (FORMAT csv, ENCODING utf8, ESCAPE '\', HEADER)` — the current format's
   * reader) and returns what that database then holds. `options` reads another format; psql's
   * client-side \COPY FROM cannot read those (it ends the data at a line `\.`, which a multi-line
   * value of the backtick and plain formats may hold), so other options load server side (`COPY … FROM '<file>'`).
   */
  loadBack(files: readonly WrittenFile[], options?: string): Promise<Rows>
  stop(): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Values

/** Short hostile strings; every string column cycles through them (those that fit its length). */
export const HOSTILE: readonly string[] = [
  'say "hi", then ""quote""',
  'C:\\dir\\',                          // a trailing backslash
  'back\\"slash-quote \\\\ \\n',         // \" and \\ and a literal \n
  'tick `x` and `` double',
  'a,b,,c,',
  'cr\rhere',
  'lf\nhere\n',
  'crlf\r\nhere\r\n',
  'é ñ ß 中文 \u{1F600} \u{1D518} \u{20BB7}',  // astral characters
  '',
  '\\',
  '"',
  '`',
  '\\.',                                // psql's end-of-data marker, as a value
  'line\n\\.\nnext',
  ' padded ',
  'NULL',
  '\\N',
  "it's",
  '\t tab',
]

/** Values a plain-CSV file and a current-format file write differently (HOSTILE has them too, longer). */
const DECISIVE: readonly string[] = ['x\\"y', 'x\\', '"q"']

const TIMESTAMPS: readonly string[] = [
  '2025-03-05 06:07:08.654321+00',
  '2024-01-02 03:04:05+00',
  '2020-01-01 00:00:00.5+00',
  '2019-06-30 23:59:59.000001-05',       // an offset: held as UTC
  '2038-01-19 03:14:08+00',             // past 32-bit seconds
]
const DATES: readonly string[] = ['1789-09-24', '2024-02-29', '1799-12-31', '2025-03-31', '1901-01-01']
const FLOATS: readonly number[] = [1.5, 1e-7, 123456.789, -2.25, 0]

/** A text of about `bytes` UTF-8 bytes made of every hostile value, many times over. */
export function longText(bytes = 1 << 20): string {
  const unit = HOSTILE.join(' | ') + '\n'
  const unitBytes = Buffer.byteLength(unit)
  return unit.repeat(Math.ceil(bytes / unitBytes))
}

/** The field of a file's column in the catalogue (undefined for columns we do not store, and for link tables). */
export function fieldOf(t: BulkTable, column: string): [string, FieldDef] | undefined {
  if (t.target.kind !== 'rows') return undefined
  const r = catalogue.get(t.target.resource)
  const sc = storageColumn(t, column)
  return Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === sc)
}

/**
 * One row with every column filled: `given` first, then by the column's PostgreSQL type and
 * catalogue field: a nullable column is NULL on the second row of its table and '' (strings) on the
 * third; choices take valid values; strings cycle through HOSTILE; foreign keys must be given (or
 * are NULL when nullable).
 */
function fill(t: BulkTable, index: number, given: Row): Row {
  const row: Row = {}
  const types = new Map(pgColumns(t).map((c) => [c.column, c.type]))
  let free = 0
  t.columns.forEach((col, ci) => {
    if (col in given) { row[col] = given[col]; return }
    const type = types.get(col)!
    const f = fieldOf(t, col)
    const d = f?.[1]
    const k = index + ci
    if (d?.kind === 'fk') {
      if (!d.nullable) throw new Error(`${t.table}.${col}: a required key must be given`)
      row[col] = null
      return
    }
    const nullable = d ? !!d.nullable : true // columns we do not store may hold anything
    if (nullable && index % 3 === 1) { row[col] = null; return }
    if (d?.choices?.length) {
      const c = d.choices[k % d.choices.length].value
      row[col] = type === 'bigint' ? Number(c) : String(c)
      return
    }
    switch (type) {
      case 'bigint': row[col] = 1000 * (index + 1) + ci; break
      case 'double precision': row[col] = FLOATS[k % FLOATS.length]; break
      case 'boolean': row[col] = k % 2 === 0; break
      case 'date': row[col] = DATES[k % DATES.length]; break
      case 'timestamp with time zone': row[col] = TIMESTAMPS[k % TIMESTAMPS.length]; break
      default: {
        if (nullable && index % 3 === 2) { row[col] = ''; break }
        const max = d?.maxLength ?? Infinity
        // The first row's first free texts hold what tells the formats apart (`\"`, a trailing `\`, doubled quotes).
        const telling = DECISIVE.filter((h) => h.length <= max)
        if (index === 0 && free < 2 && telling.length) { row[col] = telling[free++ % telling.length]; break }
        const fits = HOSTILE.filter((h) => h.length <= max)
        row[col] = fits[k % fits.length]
      }
    }
  })
  return row
}

const T = (name: string) => {
  const t = BULK_TABLES.find((x) => x.table === name)
  if (!t) throw new Error(`no bulk table ${name}`)
  return t
}

/** The rows to insert, table by table, keys consistent across tables. */
export function referenceRows(): Rows {
  const rows: Rows = {}
  const add = (table: string, ...given: Row[]) => { rows[table] = given.map((g, i) => fill(T(table), i, g)) }
  const big = longText()

  add('people_db_race', { id: 1, race: 'w' }, { id: 2, race: 'b' }, { id: 3, race: 'mena' })
  add('people_db_school', { id: 1, name: 'Columbia "Law" \\ School' }, { id: 2, is_alias_of_id: 1 }, { id: 3, name: '' })
  add('people_db_person',
    { id: 1, name_first: 'Ruth "RBG"', name_last: 'Ginsburg\\', slug: 'ruth-ginsburg', date_dob: '1933-03-15', ftm_eid: '' },
    { id: 2, name_first: 'Jöhn `tick`', name_last: 'Marshall, Jr.', slug: 'john-marshall', date_dob: '1755-09-24' },
    { id: 3, is_alias_of_id: 1, slug: 'ruth-alias' },
    { id: 4, name_first: '\u{1F600}', name_last: 'O\'Connor\r\n', slug: 'sandra-oconnor' })
  add('search_court',
    { id: 'scotus', full_name: 'Supreme Court of the United States', position: 1, start_date: '1789-09-24', in_use: true },
    { id: 'ca1', full_name: 'Court of Appeals for the First Circuit "CA1"', parent_court_id: null, position: 2.5 },
    { id: 'mad', full_name: 'District of Massachusetts,\nBoston', parent_court_id: 'ca1', position: 1e-7 })
  add('people_db_position',
    { id: 1, person_id: 1, court_id: 'scotus', school_id: 1, predecessor_id: 2, appointer_id: null, supervisor_id: null },
    { id: 2, person_id: 2, court_id: null, appointer_id: 1, supervisor_id: 1 },
    { id: 3, person_id: 4, court_id: 'mad', school_id: 2, predecessor_id: null })
  add('recap_fjcintegrateddatabase',
    { id: 1, circuit_id: 'ca1', district_id: 'mad' },
    { id: 2, circuit_id: null, district_id: null })
  add('search_originatingcourtinformation',
    { id: 1, assigned_to_id: 1, ordering_judge_id: 2 },
    { id: 2, assigned_to_id: null, ordering_judge_id: null })
  add('search_docket',
    { id: 1, court_id: 'scotus', idb_data_id: 1, originating_court_information_id: 1, assigned_to_id: 1, referred_to_id: 2, appeal_from_id: 'ca1', parent_docket_id: null, docket_number: '21-1234' },
    { id: 2, court_id: 'ca1', idb_data_id: null, originating_court_information_id: null, assigned_to_id: null, referred_to_id: null, appeal_from_id: null, parent_docket_id: 1 },
    { id: 3, court_id: 'mad', idb_data_id: 2, originating_court_information_id: 2, assigned_to_id: 4, referred_to_id: null, appeal_from_id: null, parent_docket_id: null, docket_number: '' })
  add('search_opinioncluster',
    { id: 1, docket_id: 1, case_name: 'Smith v. "Jones"', date_filed: '1795-02-01', slug: 'smith-v-jones', citation_count: 7 },
    { id: 2, docket_id: 2, date_filed: '2024-02-29', slug: null, citation_count: 0 },
    { id: 3, docket_id: 3, date_filed: '1901-01-01', slug: '', citation_count: 2, syllabus: big.slice(0, 200_000) })
  add('search_opinioncluster_panel',
    { id: 1, opinioncluster_id: 1, person_id: 1 }, { id: 2, opinioncluster_id: 1, person_id: 2 }, { id: 3, opinioncluster_id: 2, person_id: 3 })
  add('search_opinioncluster_non_participating_judges',
    { id: 1, opinioncluster_id: 1, person_id: 4 }, { id: 2, opinioncluster_id: 3, person_id: 1 })
  add('search_opinion',
    { id: 1, cluster_id: 1, author_id: 1, plain_text: big, sha1: 'a'.repeat(40) },
    { id: 2, cluster_id: 1, author_id: null },
    { id: 3, cluster_id: 2, author_id: 4, html: '<p class="x">\\section `1`</p>\r\n' },
    { id: 4, cluster_id: 3, author_id: 2 })
  add('search_opinion_joined_by',
    { id: 1, opinion_id: 1, person_id: 2 }, { id: 2, opinion_id: 1, person_id: 3 }, { id: 3, opinion_id: 3, person_id: 1 })
  add('search_courthouse',
    { id: 1, court_id: 'scotus', court_seat: true }, { id: 2, court_id: 'ca1', court_seat: null }, { id: 3, court_id: 'mad', court_seat: false })
  add('search_court_appeals_to',
    { id: 1, from_court_id: 'mad', to_court_id: 'ca1' }, { id: 2, from_court_id: 'ca1', to_court_id: 'scotus' }, { id: 3, from_court_id: 'mad', to_court_id: 'scotus' })
  add('search_opinionscited',
    { id: 1, cited_opinion_id: 1, citing_opinion_id: 3, depth: 2 }, { id: 2, cited_opinion_id: 2, citing_opinion_id: 3, depth: 1 }, { id: 3, cited_opinion_id: 3, citing_opinion_id: 4, depth: 5 })
  add('search_citation',
    { id: 1, cluster_id: 1, volume: 1, reporter: 'U.S.', page: '1', type: 1 },
    { id: 2, cluster_id: 1, volume: 3, reporter: 'Dall.', page: '2"', type: 2 },
    { id: 3, cluster_id: 2, volume: 598, reporter: 'F. 4th', page: '\\12`', type: 3 })
  add('search_parenthetical',
    { id: 1, described_opinion_id: 1, describing_opinion_id: 3, text: 'holding that "a" \\ b, `c`\r\n', score: 0.75 },
    { id: 2, described_opinion_id: 2, describing_opinion_id: 3, group_id: null, score: 1e-7 })
  add('audio_audio',
    { id: 1, docket_id: 1, case_name: 'Audio "one"\\' },
    { id: 2, docket_id: 2, judges: null, download_url: null },
    { id: 3, docket_id: 3, judges: '', download_url: '' })
  add('people_db_retentionevent', { id: 1, position_id: 1, date_retention: '1790-01-01' }, { id: 2, position_id: 2, date_retention: '2020-11-03' })
  add('people_db_education', { id: 1, person_id: 1, school_id: 1 }, { id: 2, person_id: 2, school_id: 2 }, { id: 3, person_id: 1, school_id: 3 })
  add('people_db_politicalaffiliation', { id: 1, person_id: 1 }, { id: 2, person_id: 2 })
  add('people_db_person_race', { id: 1, person_id: 1, race_id: 1 }, { id: 2, person_id: 1, race_id: 2 }, { id: 3, person_id: 2, race_id: 3 })
  add('disclosures_financialdisclosure', { id: 1, person_id: 1, year: 2020 }, { id: 2, person_id: 2, year: 1999 }, { id: 3, person_id: 4, year: 2024 })
  const fd = (table: string) => add(table, { id: 1, financial_disclosure_id: 1 }, { id: 2, financial_disclosure_id: 1 }, { id: 3, financial_disclosure_id: 2 })
  for (const table of ['disclosures_investment', 'disclosures_position', 'disclosures_agreement', 'disclosures_noninvestmentincome',
    'disclosures_spouseincome', 'disclosures_reimbursement', 'disclosures_gift', 'disclosures_debt']) fd(table)
  add('citations_unmatchedcitation',
    { id: 1, citing_opinion_id: 1, court_id: 'scotus', citation_string: '1 "Foo" 2' },
    { id: 2, citing_opinion_id: 3, court_id: null },
    { id: 3, citing_opinion_id: 4, court_id: 'mad', reporter: '' })
  for (const t of BULK_TABLES) {
    if (!rows[t.table]) throw new Error(`no rows for ${t.table}`)
    // In the order the database returns them (ids; text ids in code-point order, as the C collation sorts them).
    rows[t.table].sort((a, b) => (typeof a.id === 'number' ? (a.id as number) - (b.id as number) : String(a.id) < String(b.id) ? -1 : 1))
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const q = (s: string) => `'${s.replace(/'/g, "''")}'` // standard_conforming_strings: backslashes are literal
const literal = (v: Value) => (v === null ? 'NULL' : typeof v === 'string' ? q(v) : typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v))
const ident = (s: string) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`)

/** Runs a psql script file against a database of the server; resolves with its stdout. */
function psqlFile(pg: LocalPostgres, db: string, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(path.join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-X', '-q', '-A', '-t', '-f', file],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PGCLIENTENCODING: 'UTF8' } })
    const out: Buffer[] = []
    let err = ''
    p.stdout.on('data', (d: Buffer) => out.push(d))
    p.stderr.on('data', (d) => { err += d })
    p.once('error', reject)
    p.once('exit', (code) => (code === 0 && !/ERROR/.test(err) ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`psql ${path.basename(file)} failed (${code}): ${err.trim().slice(-2000)}`))))
  })
}

/** Every table's rows as PostgreSQL holds them, as JSON. */
async function readAll(pg: LocalPostgres, db: string, work: string): Promise<Rows> {
  const script = path.join(work, `read-${db}-${Date.now()}.sql`)
  writeFileSync(script, `SET TIME ZONE 'UTC';\nSELECT json_build_object(${BULK_TABLES.map((t) =>
    `${q(t.table)}, (SELECT coalesce(json_agg(row_to_json(x) ORDER BY x.id), '[]'::json) FROM (SELECT ${t.columns.map(ident).join(', ')} FROM ${ident(t.table)}) x)`).join(',\n')});\n`)
  return JSON.parse(await psqlFile(pg, db, script)) as Rows
}

export async function startReferenceDb(opts: { dir?: string; log?: (m: string) => void } = {}): Promise<ReferenceDb> {
  const log = opts.log ?? (() => {})
  const work = opts.dir ?? mkdtempSync(path.join(os.tmpdir(), 'reference-pg-'))
  const owned = !opts.dir
  mkdirSync(work, { recursive: true })
  chmodSync(work, 0o755) // the server runs as the postgres user when we are root: it must reach its folder
  const pg = await startPostgres({ dir: path.join(work, 'pg'), log, settings: { shared_buffers: '64MB', max_connections: '20' } })
  try {
    const inserted = referenceRows()
    const script = path.join(work, 'load.sql')
    const parts = [`SET TIME ZONE 'UTC';`, 'BEGIN;', referenceSchemaSql()]
    for (const t of BULK_TABLES) for (const row of inserted[t.table]) {
      parts.push(`INSERT INTO ${ident(t.table)} (${t.columns.map(ident).join(', ')}) VALUES (${t.columns.map((c) => literal(row[c])).join(', ')});`)
    }
    parts.push('COMMIT;')
    writeFileSync(script, parts.join('\n'))
    await psqlFile(pg, 'postgres', script)
    const held = await readAll(pg, 'postgres', work)
    let checks = 0
    const ref: ReferenceDb = {
      pg, inserted, held,
      async write(dir, format, wopts = {}) {
        mkdirSync(dir, { recursive: true })
        const tables = wopts.tables ?? BULK_TABLES
        const out: WrittenFile[] = []
        const lines = [`SET TIME ZONE 'UTC';`]
        for (const t of tables) {
          const file = path.join(dir, `${t.file}-${EXPORT_DATE}.csv`)
          if (existsSync(file)) rmSync(file)
          if (existsSync(`${file}.bz2`)) rmSync(`${file}.bz2`)
          lines.push(`\\COPY ${ident(t.table)} (${t.columns.map(ident).join(', ')}) TO ${q(file)} WITH (${FORMAT_OPTIONS[format]})`)
          out.push({ table: t.table, file: path.basename(file), path: file, rows: held[t.table].length })
        }
        const script = path.join(work, `write-${format}-${Date.now()}.sql`)
        writeFileSync(script, lines.join('\n') + '\n')
        await psqlFile(pg, 'postgres', script)
        if (wopts.bz2) {
          execFileSync('bzip2', ['-f', ...out.map((f) => f.path)])
          for (const f of out) { f.path += '.bz2'; f.file += '.bz2' }
        }
        log(`wrote ${out.length} ${format} files to ${dir}`)
        return out
      },
      async loadBack(files, options = REFERENCE_LOAD_OPTIONS) {
        const db = `check${++checks}`
        await pg.psql(`CREATE DATABASE ${db}`)
        const tmp = mkdtempSync(path.join(work, 'plain-'))
        const lines = [`SET TIME ZONE 'UTC';`, referenceSchemaSql()]
        for (const f of files) {
          const t = T(f.table)
          let file = f.path
          if (file.endsWith('.bz2')) {
            file = path.join(tmp, f.file.replace(/\.bz2$/, ''))
            writeFileSync(file, execFileSync('bzip2', ['-dc', f.path], { maxBuffer: 1 << 30 }))
          }
          lines.push(options === REFERENCE_LOAD_OPTIONS
            ? referenceCopyCommand(t, file)
            : `COPY ${ident(t.table)} (${t.columns.map(ident).join(', ')}) FROM ${q(file)} WITH (${options});`)
        }
        const script = path.join(work, `${db}.sql`)
        writeFileSync(script, lines.join('\n') + '\n')
        await psqlFile(pg, db, script)
        return readAll(pg, db, work)
      },
      async stop() {
        await pg.stop()
        if (owned) rmSync(work, { recursive: true, force: true })
      },
    }
    return ref
  } catch (err) {
    await pg.stop()
    throw err
  }
}

/** One-shot: a database, its files in one format, its rows; the database is stopped again. */
export async function makeReferenceFiles(dir: string, format: ReferenceFormat, opts: { bz2?: boolean; log?: (m: string) => void } = {}): Promise<{ files: WrittenFile[]; held: Rows; inserted: Rows }> {
  const ref = await startReferenceDb({ log: opts.log })
  try {
    const files = await ref.write(dir, format, { bz2: opts.bz2 })
    return { files, held: ref.held, inserted: ref.inserted }
  } finally { await ref.stop() }
}
