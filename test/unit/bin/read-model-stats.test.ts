/**
 * `lds read-model stats`: rows, deletes and bytes per resource as the store holds them, the large
 * texts a store still holds, and the projection (bytes per row × the rows asked for).
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { openReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf, largeColumnsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf } from '../../../api/read-model/list-index.js'
import type { AppliedEvent } from '../../../api/read-model/store.js'
import { readModelStats, storeFileIn, project, parseProjection, formatStats } from '../../../bin/read-model-stats.js'

const ts = '2024-03-01T10:00:00Z'
const events = (n: number): AppliedEvent[] => [
  ...Array.from({ length: n }, (_, i) => ({ resource: 'opinions', event: { op: 'upsert' as const, version: 1, key: String(i + 1), entity: { id: i + 1, cluster_id: 1, type: '020lead', plain_text: 'é'.repeat(100), date_modified: ts } } })),
  ...Array.from({ length: 2 * n }, (_, i) => ({ resource: 'dockets', event: { op: 'upsert' as const, version: 1, key: String(i + 1), entity: { id: i + 1, court_id: 'scotus', case_name: `Case ${i}`, date_modified: ts } } })),
  { resource: 'dockets', event: { op: 'delete' as const, version: 2, key: '1', entity: null } },
]

async function storeIn(t: Test, large: boolean): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-stats-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat), new Set(), large ? largeColumnsOf(cat) : new Map())
  await store.apply(events(10), [{ topic: 'x', partition: 0, offset: '31' }])
  await store.close()
  return storeFileIn(dir)
}

t.test('rows, deletes and bytes by resource; the texts a store holds', async (t) => {
  const withTexts = readModelStats(await storeIn(t, false), cat)
  const without = readModelStats(await storeIn(t, true), cat)
  const of = (s: typeof withTexts, r: string) => s.resources.find((x) => x.resource === r)!
  t.same([of(withTexts, 'opinions').rows, of(withTexts, 'dockets').rows, of(withTexts, 'dockets').deleted], [10, 19, 1])
  t.equal(of(withTexts, 'opinions').largeBytes, 10 * 200, 'UTF-8 bytes of the texts the rows hold')
  t.equal(of(without, 'opinions').largeBytes, 0, 'none once they are left out')
  t.ok(of(without, 'opinions').valueBytes < of(withTexts, 'opinions').valueBytes - 1500, 'and the rows are smaller by about them')
  t.equal(of(without, 'dockets').valueBytes, of(withTexts, 'dockets').valueBytes, 'other resources alike')
  t.ok(of(without, 'dockets').listEntries > 0, 'list entries counted')
  // The format is the layout's number, and says when large texts are kept out (a new layout bumps the number).
  t.match(withTexts.format, /^\d+$/, 'the format of a store with its texts is the layout number alone')
  t.equal(without.format, `${withTexts.format}-large-out`, 'the format names how the store keeps large texts')
  const entities = without.databases.find((d) => d.name === 'entities')!
  t.equal(entities.keyBytes + entities.valueBytes >= without.resources.reduce((n, s) => n + s.keyBytes + s.valueBytes, 0), true, 'the sub-database holds at least the rows')
  t.match(formatStats(without), /\| opinions \| 10 \| 0 \|/)
})

t.test('a projection: bytes per row times the rows asked for, others scaled with the first named', async (t) => {
  const stats = readModelStats(await storeIn(t, true), cat)
  const rows = parseProjection('opinions=1000,dockets=10_000')
  const p = project(stats, rows)
  const of = (r: string) => stats.resources.find((x) => x.resource === r)!
  t.equal(p.factor('opinions'), 100)
  t.equal(p.factor('dockets'), 10_000 / 19)
  t.equal(p.byResource.get('opinions'), (of('opinions').keyBytes + of('opinions').valueBytes) * 100)
  t.ok(p.total > [...p.byResource.values()].reduce((a, b) => a + b, 0), 'the total adds the other sub-databases')
  t.throws(() => parseProjection('opinions'), /expected resource=rows/)
  t.throws(() => project(stats, parseProjection('people=10')), /no people rows/)
})
