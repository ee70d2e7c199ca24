/**
 * Out and back in: a data set exported to the reference's files, loaded into a second, empty
 * instance with `ingest bulk`, holds every row and every column the files carry; exported again,
 * it gives byte-identical files.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testStack, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, type Runtime } from '../../bin/runtime.js'
import { ingestSample } from '../../bin/commands/ingest-sample.js'
import { ingestBulk } from '../../bin/commands/ingest-bulk.js'
import { exportBulk } from '../../connectors/bulk/export/index.js'
import { BULK_TABLES, storageColumn } from '../../connectors/bulk/tables.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'
import { sql, ident, join } from '../../core/sql.js'

const dirs: string[] = []
const tmp = () => { const d = mkdtempSync(path.join(tmpdir(), 'bulk-round-')); dirs.push(d); return d }
t.teardown(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

/** The columns of a resource that the reference's files carry: its tables' columns and link arrays. */
function carried(resource: string): string[] {
  const stored = new Set(columnSpecs(catalogue, catalogue.get(resource)).map((c) => c.column))
  const cols = new Set<string>()
  for (const t of BULK_TABLES) {
    if (t.target.resource !== resource) continue
    if (t.target.kind === 'link') cols.add(t.target.column)
    else for (const c of t.columns) if (stored.has(storageColumn(t, c))) cols.add(storageColumn(t, c))
  }
  return [...cols].sort()
}

async function contents(rt: Runtime, resource: string): Promise<unknown[]> {
  const cols = carried(resource)
  return rt.db.query(sql`SELECT ${join(cols.map((c) => sql`${ident(c)}`), ', ')} FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident(catalogue.get(resource).table)} FINAL ORDER BY id`,
    { settings: { output_format_json_quote_64bit_integers: 0 } })
}

// Two stacks, the sample and two exports on a shared machine: more than the default file timeout.
t.setTimeout(1_200_000)

t.test('export, load into an empty instance, export again', async (t) => {
  const date = '2026-11-28'
  // The second, empty instance is prepared while the first one loads and exports.
  const [a, b] = await Promise.all([testStack(t), testStack(t)])
  const sinkA = await startProcessors(a, ['table-sink'])
  t.teardown(() => Promise.all(sinkA.map((s) => s.stop())))
  const summary = await ingestSample(a, { opinions: 60, seed: 3, progress: false, today: date })
  const resources = [...new Set(BULK_TABLES.map((t) => t.target.resource))]
  await waitFor(async () => {
    for (const r of resources) if ((await countFinal(a, catalogue.get(r).table)) !== (summary.byResource[r] ?? 0)) return false
    return true
  }, 'the sample applied', 120_000, 500)

  const first = tmp()
  const m1 = await exportBulk(a.db, first, { date })
  t.equal(m1.files.length, 33, 'every one of the 33 files')

  const sinkB = await startProcessors(b, ['table-sink'])
  t.teardown(() => Promise.all(sinkB.map((s) => s.stop())))
  const loaded = await ingestBulk(b, first, { progress: false, deadLetterPath: path.join(tmp(), 'dead.jsonl') })
  t.equal(loaded.refused, 0, 'no row refused')
  t.equal(loaded.failedFiles, 0)
  t.same(loaded.skippedFiles, [], 'every exported file is one ingest knows')

  for (const r of resources) {
    const want = await contents(a, r)
    const got = await waitFor(async () => { const rows = await contents(b, r); return rows.length === want.length && rows }, `${r} loaded`, 120_000, 500)
    t.same(got, want, `${r}: ${want.length} rows, ${carried(r).length} columns equal`)
  }

  const second = tmp()
  const m2 = await exportBulk(b.db, second, { date })
  const digest = (m: typeof m1) => m.files.map((f) => [f.name, f.rows, f.sha256]).sort()
  t.same(digest(m2), digest(m1), 'the second export is byte for byte the first')
})
