/**
 * The reference's bulk files, as PostgreSQL 15 itself writes them, through `lds ingest bulk` to the
 * API: for each of the three formats the reference has used (current `"`+ESCAPE '\', 2024's
 * backtick quotes, the oldest plain CSV), all 33 tables with hostile values (test/helpers/
 * reference-files.ts) are ingested from one folder into a fresh stack; then every object of every
 * resource the files feed is compared field for field with what PostgreSQL held: v4 details (the
 * API's read model) and v4 lists (ClickHouse), including the link tables' arrays (cluster panel
 * and non-participating judges, opinion joined_by, court appeals_to, person race codes), nested
 * citations and financial-disclosure parts, reverse links; and the ClickHouse rows of the tables
 * the API does not serve (parentheticals, unmatched citations, courthouses, races, citations).
 * NULL stays null, '' stays '', strings are exact, no row is refused.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startReferenceDb, type ReferenceDb, type ReferenceFormat, type Row, type Value, type WrittenFile } from '../helpers/reference-files.js'
import { startProcessors, stopAll, type Runtime } from '../../bin/runtime.js'
import { ingestBulk } from '../../bin/commands/ingest-bulk.js'
import { buildApp } from '../../api/app.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnOf, type FieldDef, type ResourceDef } from '../../schemas/define.js'
import { isStored } from '../../schemas/kinds.js'
import { BULK_TABLES, storageColumn, type BulkTable } from '../../connectors/bulk/tables.js'
import { pgColumns } from '../../connectors/bulk/pg-schema.js'
import { entityTopic, groupId, PROCESSORS } from '../../schemas/events/index.js'
import { groupLag } from '../../bin/catch-up.js'
import { sql, ident } from '../../core/sql.js'

const HOST = 'bulk.test'
const ORIGIN = `http://${HOST}`
const url = (resource: string, id: unknown) => `${ORIGIN}/api/rest/v4/${catalogue.get(resource).path ?? resource}/${encodeURIComponent(String(id))}/`

// ---------------------------------------------------------------------------------------------
// Expected answers, from what PostgreSQL held

const rowTables = BULK_TABLES.filter((x) => x.target.kind === 'rows')
const linkTables = BULK_TABLES.filter((x) => x.target.kind === 'link')
/** The bulk table whose rows are a resource's records. */
const tableOfResource = new Map(rowTables.map((x) => [x.target.resource, x]))

/** A timestamp as PostgreSQL's JSON gives it (UTC session) → as the API writes it: six fraction digits, or none when zero. */
function apiTimestamp(v: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?\+00:00$/.exec(v)
  if (!m) throw new Error(`unexpected timestamp from PostgreSQL: ${v}`)
  const frac = (m[2] ?? '').padEnd(6, '0')
  return `${m[1]}${/^0+$/.test(frac) ? '' : `.${frac}`}+00:00`
}

/** The file column holding a storage column of a rows table. */
const fileColumn = (x: BulkTable, storage: string) => x.columns.find((c) => storageColumn(x, c) === storage)

/** The API value of a stored field, from the file's (PostgreSQL's) value. */
function expectValue(d: FieldDef, v: Value): unknown {
  if (v === null) return d.kind === 'm2m' || d.kind === 'strings' ? [] : null
  switch (d.kind) {
    case 'datetime': return apiTimestamp(String(v))
    case 'fk': return d.asId ? v : url(d.target!, v) // an embedded object is compared by its resource_uri
    default: return v
  }
}

/** A related object as the comparison sees it: an embedded object by its URL (its own fields are checked on its own detail). */
const asRef = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).resource_uri ?? (v as Record<string, unknown>).id ?? v : v)
const sortedJson = (xs: unknown[]) => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))

interface Expected {
  /** Field → expected API value; arrays are compared as sets (sorted). */
  fields: Record<string, unknown>
  unordered: Set<string>
}

class Expectations {
  constructor(private readonly held: Record<string, Row[]>) {}

  rowsOf(table: string): Row[] { return this.held[table] ?? [] }

  /** The shown fields of a resource that one row of its file decides (columns, link arrays, reverse links, nested objects). */
  object(x: BulkTable, row: Row, depth = 0): Expected {
    const r = catalogue.get(x.target.resource)
    const fields: Record<string, unknown> = {}
    const unordered = new Set<string>()
    const shown = Object.entries(r.fields).filter(([, d]) => !d.hidden && !d.writeOnly)
    const id = row.id
    if (r.fields.resource_uri && r.api) fields.resource_uri = url(r.name, id)
    for (const [name, d] of shown) {
      if (isStored(d.kind) && d.kind !== 'm2m' && d.kind !== 'strings') {
        const col = fileColumn(x, columnOf(name, d))
        if (col !== undefined) fields[name] = expectValue(d, row[col])
      } else if (d.kind === 'fk_id') {
        const col = fileColumn(x, `${d.of}_id`)
        if (col !== undefined) fields[name] = row[col]
      } else if (d.kind === 'm2m' || d.kind === 'strings') {
        const link = linkTables.find((l) => l.target.kind === 'link' && l.target.resource === r.name && l.target.column === columnOf(name, d))
        if (!link || link.target.kind !== 'link') continue
        const { parent, child, codes } = link.target
        const children = this.rowsOf(link.table).filter((lr) => lr[parent] === id).map((lr) => lr[child])
        if (codes) {
          const codeTable = tableOfResource.get(codes)!
          const codeColumn = codeTable.columns.find((c) => c !== 'id')!
          fields[name] = sortedJson(children.map((c) => this.rowsOf(codeTable.table).find((cr) => cr.id === c)?.[codeColumn]))
        } else fields[name] = sortedJson(children.map((c) => (d.asId ? c : url(d.target!, c))))
        unordered.add(name)
      } else if (d.kind === 'reverse' && depth === 0) {
        const from = catalogue.get(d.from ?? d.target!)
        const fx = tableOfResource.get(from.name)
        if (!fx) continue
        const via = fileColumn(fx, d.via!)
        const pick = fileColumn(fx, d.pick ?? from.key)
        if (!via || !pick) continue
        const links = this.rowsOf(fx.table).filter((fr) => fr[via] === id).map((fr) => (d.asId ? fr[pick] : url(d.target!, fr[pick])))
        if (d.single) fields[name] = links[0] ?? null
        else { fields[name] = sortedJson(links); unordered.add(name) }
      } else if (d.kind === 'nested' && depth === 0) {
        const fx = tableOfResource.get(d.target!)
        if (!fx) continue
        const via = fileColumn(fx, d.via!)
        if (!via) continue
        fields[name] = this.rowsOf(fx.table).filter((fr) => fr[via] === id).map((fr) => {
          const o = this.object(fx, fr, depth + 1).fields
          return d.only ? Object.fromEntries(d.only.filter((k) => k in o).map((k) => [k, o[k]])) : o
        })
        unordered.add(name)
      }
    }
    return { fields, unordered }
  }
}

/** The actual object seen through the expected one: its keys only, embedded objects as references, sets sorted. */
function project(actual: Record<string, unknown>, exp: Expected): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, want] of Object.entries(exp.fields)) {
    let v = k in actual ? actual[k] : '<missing>'
    if (Array.isArray(want) && want.length && typeof want[0] === 'object' && Array.isArray(v)) {
      // nested objects: each seen through the keys the expected ones have
      const keys = Object.keys(want[0] as object)
      v = v.map((o) => Object.fromEntries(keys.map((kk) => [kk, asRef((o as Record<string, unknown>)[kk])])))
    } else v = Array.isArray(v) ? v.map(asRef) : asRef(v)
    out[k] = exp.unordered.has(k) && Array.isArray(v) ? sortedJson(v) : v
  }
  return out
}
const sortExpected = (exp: Expected): Record<string, unknown> =>
  Object.fromEntries(Object.entries(exp.fields).map(([k, v]) => [k, exp.unordered.has(k) && Array.isArray(v) ? sortedJson(v) : v]))

// ---------------------------------------------------------------------------------------------
// Waiting until applied

async function entityTopics(rt: Runtime): Promise<string[]> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const all = new Set(await admin.listTopics())
    return catalogue.stored.map((r) => entityTopic(rt.cfg, r)).filter((x) => all.has(x))
  } finally { await admin.disconnect() }
}

/** Until the table sink has committed every entity event and the app's read model holds it. */
async function waitApplied(rt: Runtime, app: FastifyInstance) {
  const topics = await entityTopics(rt)
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    await waitFor(async () => {
      const lag = await groupLag(admin, groupId(rt.cfg, PROCESSORS.tableSink), topics)
      return lag.total > 0 && lag.done >= lag.total
    }, 'the table sink to apply every event', 120_000, 250)
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) {
        const high = BigInt(p.high)
        if (high === 0n) continue
        if (!(await app.readModel!.waitUntilApplied(topic, p.partition, String(high - 1n), 60_000))) throw new Error(`read model did not apply ${topic}/${p.partition} up to ${high}`)
      }
    }
  } finally { await admin.disconnect() }
}

// ---------------------------------------------------------------------------------------------

/** Resources the API serves that the 33 files feed (rows tables with an endpoint). */
const SERVED = rowTables.filter((x) => catalogue.get(x.target.resource).api)
/** Rows tables without an endpoint: compared in ClickHouse. */
const BULK_ONLY = rowTables.filter((x) => !catalogue.get(x.target.resource).api)

/** The dialect ingest told for each file (by table), per format. */
const dialects = new Map<ReferenceFormat, Map<string, string>>()
/**
 * Whether a plain-CSV file's text tells its dialect: `\"` or `\\`, or a doubled quote inside a
 * value. Without either, reading it as the current format gives the same values, and ingest may
 * call it either (connectors/bulk/dialect.ts).
 */
const plainIsDecisive = (text: string) => /\\["\\]/.test(text) || /[^,\n]""[^,\r\n]/.test(text)
const fileText = (f: WrittenFile) => (f.path.endsWith('.bz2') ? execFileSync('bzip2', ['-dc', f.path], { maxBuffer: 1 << 30 }) : readFileSync(f.path)).toString('utf8')
/** The plain files (as written) and whether each tells its dialect, read while they exist. */
const plainFiles: (WrittenFile & { decisive: boolean })[] = []

async function checkFormat(t: Test, ref: ReferenceDb, format: ReferenceFormat, bz2: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), `bulk-ref-${format}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const files = await ref.write(dir, format, { bz2 })
  t.equal(files.length, 33, 'PostgreSQL wrote the 33 files')
  if (format === 'plain') plainFiles.push(...files.map((f) => ({ ...f, decisive: plainIsDecisive(fileText(f)) })))
  const exp = new Expectations(ref.held)

  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const deadLetterPath = path.join(dir, 'dead-letters.jsonl')
  const s = await ingestBulk(rt, dir, { deadLetterPath, progress: false, restart: true })
  const dead = existsSync(deadLetterPath) ? readFileSync(deadLetterPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []
  t.equal(s.refused, 0, `no row refused${dead.length ? `; first: ${JSON.stringify(dead.slice(0, 3)).slice(0, 2000)}` : ''}`)
  t.same(dead, [], 'the dead-letter file is empty')
  t.same(s.skippedFiles, [], 'every file is read')
  t.ok(Array.isArray(s.files), 'the answer lists the files it read')
  const byTable = new Map(s.files.map((f) => [f.table, f]))
  for (const x of BULK_TABLES) {
    const f = byTable.get(x.table)
    t.ok(f, `${x.table} read`)
    if (!f) continue
    t.equal(f.rows, ref.held[x.table].length, `${x.table}: every row read`)
    t.equal(f.refused, 0, `${x.table}: none refused`)
    t.match(f.file, new RegExp(`^${x.file}-2025-03-31\\.csv${bz2 ? '\\.bz2' : ''}$`), `${x.table}: its file`)
  }
  dialects.set(format, new Map(s.files.map((f) => [f.table ?? f.file, String(f.dialect)])))
  if (format !== 'plain') {
    const seen = new Set(s.files.map((f) => f.dialect))
    t.equal(seen.size, 1, `one dialect for all 33 ${format} files: ${[...seen].join(', ')}`)
  }
  for (const x of rowTables) t.ok((s.byResource[x.target.resource] ?? 0) >= ref.held[x.table].length, `${x.target.resource}: every row published`)

  const app = await buildApp(rt)
  t.teardown(() => app.close())
  await waitApplied(rt, app)
  const token = await testUser(rt, 'bulk-reader', { app })
  const get = async (u: string) => {
    const res = await app.inject({ url: u, headers: { host: HOST, authorization: `Token ${token}` } })
    return { status: res.statusCode, body: res.json() as Record<string, unknown> }
  }

  for (const x of SERVED) {
    const r = catalogue.get(x.target.resource)
    const base = `/api/rest/v4/${r.path ?? r.name}/`
    const rows = ref.held[x.table]
    t.test(`${r.name}: details`, async (t) => {
      for (const row of rows) {
        const e = exp.object(x, row)
        if (process.env.BULK_REF_DEBUG) t.comment(JSON.stringify(sortExpected(e)).slice(0, 3000))
        const { status, body } = await get(`${base}${encodeURIComponent(String(row.id))}/`)
        t.equal(status, 200, `${r.name} ${row.id}: found`)
        if (status === 200) t.same(project(body, e), sortExpected(e), `${r.name} ${row.id}: every field as PostgreSQL held it`)
      }
    })
    t.test(`${r.name}: list`, async (t) => {
      const { status, body } = await get(`${base}?page_size=100`)
      t.equal(status, 200, `${r.name}: list answers`)
      const results = (body.results ?? []) as Record<string, unknown>[]
      t.equal(results.length, rows.length, `${r.name}: one object per row`)
      const keyOf = (o: Record<string, unknown>) => String(o.resource_uri ?? o.id)
      const expected = rows.map((row) => exp.object(x, row, 1)) // lists: the row's own fields and link arrays
      for (const e of expected) {
        const k = String(e.fields.resource_uri ?? e.fields.id)
        const found = results.find((o) => keyOf(o) === k)
        t.ok(found, `${r.name}: ${k} listed`)
        if (found) t.same(project(found, e), sortExpected(e), `${r.name} ${k} in the list: every field as PostgreSQL held it`)
      }
    })
  }

  t.test('tables the API does not serve, in ClickHouse', async (t) => {
    for (const x of BULK_ONLY) {
      const r = catalogue.get(x.target.resource)
      const got = await rt.db.query<Record<string, unknown>>(sql`SELECT * FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident(r.table)} FINAL WHERE _deleted = 0 ORDER BY id`)
      const want = ref.held[x.table].map((row) => chExpected(r, x, row))
      t.same(got.map((g) => chProject(r, x, g)), want, `${r.name}: every row as PostgreSQL held it`)
    }
  })
}

/** A bulk-only row as ClickHouse should hold it: storage columns; timestamps in ClickHouse's ISO form compared as API timestamps. */
function chExpected(r: ResourceDef, x: BulkTable, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of x.columns) {
    const sc = storageColumn(x, c)
    const field = Object.entries(r.fields).find(([n, d]) => isStored(d.kind) && columnOf(n, d) === sc)
    if (!field) continue
    const v = row[c]
    out[sc] = v !== null && field[1].kind === 'datetime' ? apiTimestamp(String(v)) : v
  }
  return out
}
function chProject(r: ResourceDef, x: BulkTable, got: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of x.columns) {
    const sc = storageColumn(x, c)
    const field = Object.entries(r.fields).find(([n, d]) => isStored(d.kind) && columnOf(n, d) === sc)
    if (!field) continue
    const v = got[sc]
    const kind = field[1].kind
    if (v === null || v === undefined) { out[sc] = v === undefined ? '<missing>' : null; continue }
    if (kind === 'datetime') out[sc] = apiTimestamp(String(v).replace(/Z$/, '+00:00').replace(' ', 'T').replace(/\.(\d*?)0*\+/, (_m, f: string) => (f ? `.${f}+` : '+')))
    else if (kind === 'int' || kind === 'float' || (kind === 'fk' && typeof v === 'string' && /^-?\d+$/.test(v) && r.fields[field[0]].target && catalogue.get(r.fields[field[0]].target!).keyKind === 'int')) out[sc] = Number(v)
    else out[sc] = v
  }
  return out
}

// ---------------------------------------------------------------------------------------------

// PostgreSQL, then three stacks each fed 33 files and read back object by object: minutes, not seconds.
t.setTimeout(900_000)

t.test('the reference bulk files of every format, through ingest bulk, to the API', async (t) => {
  const ref = await startReferenceDb({ log: (m) => t.comment(m) })
  t.teardown(() => ref.stop())

  t.test('PostgreSQL held what was inserted', async (t) => {
    for (const x of BULK_TABLES) {
      const text = pgColumns(x).filter((c) => c.type === 'text').map((c) => c.column)
      const pick = (row: Row) => Object.fromEntries(text.map((c) => [c, row[c]]))
      t.same(ref.held[x.table].map(pick), ref.inserted[x.table].map(pick), `${x.table}: text values exact`)
    }
  })

  t.test('the current format loads back with the reference\'s own \\COPY command', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bulk-ref-loadback-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const files = await ref.write(dir, 'current', { bz2: true })
    t.same(await ref.loadBack(files), ref.held, 'every table, every value')
  })

  const runs: [ReferenceFormat, boolean][] = [['current', true], ['backtick', false], ['plain', true]]
  for (const [format, bz2] of runs) t.test(`${format} format${bz2 ? ', bzip2' : ''}`, (t) => checkFormat(t, ref, format, bz2))

  t.test('the three formats are told apart', async (t) => {
    const [current, backtick, plain] = runs.map(([f]) => dialects.get(f) ?? new Map<string, string>())
    const one = (m: Map<string, string>) => [...new Set(m.values())]
    t.equal(one(current).length, 1, 'the current format: one dialect')
    t.equal(one(backtick).length, 1, 'the backtick format: one dialect')
    t.not(one(current)[0], one(backtick)[0], 'current and backtick differ')
    const decisive = plainFiles.filter((f) => f.decisive)
    t.equal(decisive.length, 24, 'the 24 plain files with free text hold `\\"`, `\\\\` or a doubled quote in a value')
    const plainDialect = plain.get(decisive[0]?.table ?? '')
    t.ok(plainDialect && plainDialect !== one(current)[0] && plainDialect !== one(backtick)[0], `plain CSV is a third dialect (${plainDialect})`)
    for (const f of decisive) t.equal(plain.get(f.table), plainDialect, `${f.file}: told to be plain CSV`)
    for (const f of plainFiles.filter((x) => !x.decisive)) {
      t.ok([plainDialect, one(current)[0]].includes(plain.get(f.table)), `${f.file}: reads the same either way, called ${plain.get(f.table)}`)
    }
  })
})
