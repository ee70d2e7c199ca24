/**
 * What an export holds when the table has history: each key's newest version, nothing of a key
 * whose newest version is a delete, a row given twice at one version once, in key order — in
 * every format, and in the link tables made from a parent's array. Rows are inserted straight into
 * the tables, versions out of order and in separate parts, as the sink writes them over time, with
 * merges stopped so that the read, not a merge, has to reconcile them.
 */
import t from 'tap'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { testStack } from '../helpers/stack.js'
import { createEntityCodec } from '../../schemas/events/entity-codec.js'
import { exportBulk } from '../../connectors/bulk/export/index.js'
import type { Runtime } from '../../bin/runtime.js'
import { sql, ident } from '../../core/sql.js'

async function insert(rt: Runtime, resource: string, version: number, records: Record<string, unknown>[], deleted = false) {
  const r = rt.catalogue.get(resource)
  const codec = createEntityCodec(rt.catalogue, r)
  await rt.db.insert(r.table, records.map((x) => ({ ...codec.toEntity(x), _version: version, _deleted: deleted ? 1 : 0 })))
}

const court = (id: string, name: string, appeals: string[] = []) => ({ id, full_name: name, short_name: id, jurisdiction: 'F', position: 1, in_use: true, url: '', date_modified: '2024-01-01T00:00:00+00:00', appeals_to_ids: appeals })

t.test('an export holds the newest version of each live key, once, in key order', async (t) => {
  const rt = await testStack(t)
  // no background merge may reconcile the versions before the exports read them
  await rt.db.command(sql`SYSTEM STOP MERGES ${ident(rt.cfg.clickhouseDatabase)}.${ident(rt.catalogue.get('courts').table)}`)
  // separate inserts: separate parts, which only a merge (or the read) reconciles
  await insert(rt, 'courts', 3, [court('c2', 'Second, newest', ['c1'])])
  await insert(rt, 'courts', 1, [court('c1', 'First, old'), court('c2', 'Second, old', ['c3']), court('c3', 'Third, to be deleted')])
  await insert(rt, 'courts', 2, [court('c1', 'First, newest')])
  await insert(rt, 'courts', 2, [court('c1', 'First, newest')])
  await insert(rt, 'courts', 4, [court('c3', '')], true)
  await insert(rt, 'courts', 1, [court('c0', 'Zeroth, only')])

  const dir = mkdtempSync(path.join(tmpdir(), 'lds-export-current-'))
  t.teardown(() => execFileSync('rm', ['-rf', dir]))
  const csv = await exportBulk(rt.db, path.join(dir, 'csv'), { resources: ['courts'], date: '2024-01-02' })
  const jsonl = await exportBulk(rt.db, path.join(dir, 'jsonl'), { resources: ['courts'], format: 'jsonl' })
  const parquet = await exportBulk(rt.db, path.join(dir, 'parquet'), { resources: ['courts'], format: 'parquet' })

  const lines = (file: string) => execFileSync('bzip2', ['-dc', file]).toString().trimEnd().split('\n')
  // every cell is quoted (FORCE_QUOTE *), with backslash escapes; NULL is an empty cell
  const cells = (line: string) => (line.match(/"(?:[^"\\]|\\.)*"|(?<=^|,)(?=,|$)/g) ?? []).map((c) => c.replace(/^"|"$/g, ''))
  const courts = lines(path.join(dir, 'csv', 'courts-2024-01-02.csv.bz2'))
  const header = courts[0].split(',')
  t.same(courts.slice(1).map((l) => { const c = cells(l); return [c[header.indexOf('id')], c[header.indexOf('full_name')]] }),
    [['c0', 'Zeroth, only'], ['c1', 'First, newest'], ['c2', 'Second, newest']],
    'reference CSV: c0, c1 and c2 at their newest versions, c1 once; c3 (deleted) absent')
  t.equal(csv.files.find((f) => f.name.startsWith('courts-'))?.rows, 3, 'the manifest counts 3 rows')
  const appeals = csv.files.find((f) => f.table.endsWith('appeals_to'))
  t.ok(appeals, 'the appeals-to link table is exported')
  t.same(lines(path.join(dir, 'csv', appeals!.name)).slice(1).map(cells), [['1', 'c2', 'c1']], 'links of the newest c2 only (not the old c2 → c3)')

  const rows = readFileSync(path.join(dir, 'jsonl', 'courts.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l))
  t.same(rows.map((r) => [r.id, r.full_name]), [['c0', 'Zeroth, only'], ['c1', 'First, newest'], ['c2', 'Second, newest']], 'JSON lines: the same rows')
  const pq = readdirSync(path.join(dir, 'parquet')).find((f) => f.startsWith('courts') && f.endsWith('.parquet'))!
  t.equal(parquet.files.find((f) => f.name === pq)?.rows, 3, 'Parquet: 3 rows (from the file\'s own footer)')
})
