/**
 * Rendered details within a byte budget (LDS_READ_MODEL_RENDERED_GB, issue 24: at the full corpus
 * rendered dockets alone would take tens of GB per host). Past the budget a resource's lowest keys
 * lose their texts and its floor rises: rows at or below it are built per request, never queued to
 * render, and no text outlives a change to its rows. The byte count follows every store and drop;
 * a larger budget on a later open renders the rows that lost their texts again; 0 keeps none.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { openReadStore, type AppliedEvent, type ReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf } from '../../../api/read-model/list-index.js'
import { createDetailRenderer, renderedResourcesOf } from '../../../api/read-model/rendered-details.js'
import { compileSerializers } from '../../../api/engine/serialize.js'
import { citationOverlays } from '../../../api/plugins/citation-overlays.js'
import { createLogger } from '../../../core/logger.js'
import { loadConfig } from '../../../core/config.js'
import type { Db } from '../../../core/clickhouse.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
let version = 1
const up = (resource: string, entity: Record<string, unknown>): AppliedEvent => ({ resource, event: { op: 'upsert', version: version++, key: String(entity.id), entity } })
const del = (resource: string, id: number): AppliedEvent => ({ resource, event: { op: 'delete', version: version++, key: String(id), entity: null } })
const docket = (id: number, extra: Record<string, unknown> = {}) => ({ id, court_id: 'scotus', case_name: `Case ${id}`, docket_number: `${id}-cv`, source: 0, date_created: ts, date_modified: ts, date_filed: '2024-01-02', ...extra })
const cluster = (id: number, docketId: number) => ({ id, docket_id: docketId, case_name: `Cluster ${id}`, slug: 'c', date_filed: '2024-01-02', date_created: ts, date_modified: ts })
const IDS = Array.from({ length: 40 }, (_, i) => i + 1)

function open(t: Test, dir: string, renderedMaxBytes: number) {
  const refColumns = refColumnsOf(cat)
  const store = openReadStore(dir, refColumns, keyKindsOf(cat), listIndexesOf(cat), renderedResourcesOf(cat), new Map(), { renderedMaxBytes })
  const renderer = createDetailRenderer({ store, catalogue: cat, serializers: compileSerializers(cat, citationOverlays), refColumns, db: {} as Db, log: createLogger({ ...loadConfig(), logLevel: 'error' }) })
  return { store, renderer, close: () => store.close() }
}

function folder(t: Test) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-rendered-budget-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const withText = (store: ReadStore) => IDS.filter((id) => store.rendered('dockets', id) !== undefined)

/** The bytes of every docket's text as stored, read back: its UTF-8 and its msgpack string header. */
const storedBytes = (store: ReadStore) => IDS.reduce((n, id) => n + (store.renderedBytes('dockets', id, (b) => b.length + (b.length < 32 ? 1 : b.length < 256 ? 2 : b.length < 65536 ? 3 : 5)) ?? 0), 0)

t.test('past the budget the oldest rows lose their texts, the newest keep them', async (t) => {
  const dir = folder(t)
  // One docket's text takes about 1 KB here; measure it with no budget first.
  const probe = open(t, folder(t), Infinity)
  await probe.store.apply([up('dockets', docket(1))], [])
  await probe.renderer.drain()
  const one = probe.store.renderedSize('dockets')
  await probe.close()
  t.ok(one > 300, `a docket's text takes ${one} bytes`)

  const budget = one * 15
  const s = open(t, dir, budget)
  t.teardown(s.close)
  await s.store.apply([up('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts }), ...IDS.map((id) => up('dockets', docket(id)))], [])
  await s.renderer.drain()
  const kept = withText(s.store)
  t.ok(s.store.renderedSize('dockets') <= budget, `${s.store.renderedSize('dockets')} bytes kept, within ${budget}`)
  t.ok(kept.length >= 10 && kept.length <= 15, `${kept.length} of ${IDS.length} dockets keep a text`)
  t.same(kept, IDS.slice(IDS.length - kept.length), 'the newest ones (highest keys)')
  const floor = s.store.renderedFloor('dockets') as number
  t.equal(floor, IDS[IDS.length - kept.length - 1], 'the floor is the highest key without a text')
  t.equal(s.store.renderedSize('dockets'), storedBytes(s.store), 'the count is the bytes stored')
  t.same(s.store.staleRenders(100), [], 'nothing is left queued')

  // A change below the floor queues nothing; above it, the text is dropped and rendered again.
  await s.store.apply([up('dockets', docket(2, { case_name: 'Old, renamed' })), up('dockets', docket(40, { case_name: 'New, renamed' }))], [])
  t.same(s.store.staleRenders(100), [{ resource: 'dockets', key: 40 }], 'only the row above the floor waits to be rendered')
  t.equal(s.store.rendered('dockets', 40), undefined, 'its old text is gone at once')
  await s.renderer.drain()
  t.match(s.store.rendered('dockets', 40), /New, renamed/)
  t.equal(s.store.rendered('dockets', 2), undefined, 'the old row is still built per request')

  // A related row of an evicted docket changes: nothing to drop, nothing queued (its dependencies went with its text).
  await s.store.apply([up('clusters', cluster(500, 3))], [])
  t.same(s.store.staleRenders(100), [], 'a cluster joining an old docket queues nothing')
  await s.store.apply([up('clusters', cluster(501, 39))], [])
  t.same(s.store.staleRenders(100), [{ resource: 'dockets', key: 39 }], 'one joining a rendered docket queues it')
  await s.renderer.drain()
  t.equal(s.store.renderedSize('dockets'), storedBytes(s.store), 'the count still is the bytes stored')

  // Every docket deleted: every text dropped, the count back to nothing.
  await s.store.apply(IDS.map((id) => del('dockets', id)), [])
  await s.renderer.drain()
  t.same(withText(s.store), [], 'no text left')
  t.equal(s.store.renderedSize('dockets'), 0, 'and the count is 0')
})

t.test('a larger budget on a later open renders old rows again; 0 keeps none', async (t) => {
  const dir = folder(t)
  let s = open(t, dir, 4_000)
  await s.store.apply(IDS.map((id) => up('dockets', docket(id))), [])
  await s.renderer.drain()
  t.ok(s.store.renderedFloor('dockets') !== undefined, 'a small budget evicted')
  await s.close()

  s = open(t, dir, Infinity)
  t.equal(s.store.renderedFloor('dockets'), undefined, 'a larger budget drops the floor')
  t.ok(s.store.staleRenders(100).length > 0, 'and queues the rows that lost their texts')
  await s.renderer.drain()
  t.same(withText(s.store), IDS, 'every docket has its text again')
  await s.store.apply([up('dockets', docket(1, { case_name: 'Changed' }))], [])
  await s.renderer.drain()
  t.match(s.store.rendered('dockets', 1), /Changed/, 'and follows its rows')
  await s.close()

  s = open(t, dir, 0)
  t.teardown(s.close)
  t.same(withText(s.store), [], 'a budget of 0 keeps no text')
  t.equal(s.store.renderedSize('dockets'), 0)
  await s.store.apply([up('dockets', docket(41))], [])
  t.same(s.store.staleRenders(100), [], 'and queues nothing to render')
})
