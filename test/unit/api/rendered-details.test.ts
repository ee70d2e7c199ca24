/**
 * Rendered details in a read store of their own (no Kafka, no ClickHouse): every text equals the
 * detail a request builds from the same rows; a change to any row a detail shows (the docket, a
 * cluster joining, moving or leaving, an embedded row, a row that did not exist yet) drops its text
 * at once and renders it again; a change that lands while a detail renders keeps it from being stored.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fastJsonStringify from 'fast-json-stringify'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { resourceSchema } from '../../../schemas/json-schema.js'
import { openReadStore, msgpackText, type AppliedEvent, type ReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf } from '../../../api/read-model/list-index.js'
import { createDetailRenderer, renderedResourcesOf, withOrigin, ORIGIN_MARK } from '../../../api/read-model/rendered-details.js'
import { compileSerializers } from '../../../api/engine/serialize.js'
import { citationOverlays } from '../../../api/plugins/citation-overlays.js'
import { readModelSource } from '../../../api/engine/source.js'
import { createLogger } from '../../../core/logger.js'
import { loadConfig } from '../../../core/config.js'
import type { Db } from '../../../core/clickhouse.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
const ORIGIN = 'http://x.test'
let version = 1
const up = (resource: string, entity: Record<string, unknown>): AppliedEvent => ({ resource, event: { op: 'upsert', version: version++, key: String(entity.id), entity } })
const del = (resource: string, id: number): AppliedEvent => ({ resource, event: { op: 'delete', version: version++, key: String(id), entity: null } })
const docket = (id: number, extra: Record<string, unknown> = {}) => ({ id, court_id: 'scotus', case_name: `Case ${id}`, docket_number: `${id}-cv`, source: 0, date_created: ts, date_modified: ts, date_filed: '2024-01-02', panel_ids: [1], ...extra })
const cluster = (id: number, docketId: number) => ({ id, docket_id: docketId, case_name: `Cluster ${id}`, slug: 'c', date_filed: '2024-01-02', date_created: ts, date_modified: ts })
const oci = (id: number, judge: string) => ({ id, docket_number: `lower-${id}`, docket_number_raw: '', assigned_to_str: judge, ordering_judge_str: '', court_reporter: '', date_created: ts, date_modified: ts })

function setup(t: Test) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-rendered-'))
  const refColumns = refColumnsOf(cat)
  const store = openReadStore(dir, refColumns, keyKindsOf(cat), listIndexesOf(cat), renderedResourcesOf(cat))
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }) })
  const serializers = compileSerializers(cat, citationOverlays)
  const log = createLogger({ ...loadConfig(), logLevel: 'error' })
  const db = {} as Db
  const renderer = createDetailRenderer({ store, catalogue: cat, serializers, refColumns, db, log })
  const stringify = fastJsonStringify(resourceSchema(cat, cat.get('dockets'), { version: 'v4', partial: true }) as never) as (o: unknown) => string
  /** The detail as a request without a rendered text builds it. */
  const live = async (id: number) => {
    const row = store.get('dockets', id)
    if (!row) return undefined
    const ctx = { db, catalogue: cat, origin: ORIGIN, version: 'v4' as const, user: null, source: readModelSource(store, refColumns, { byKeys: async () => [], byColumn: async () => [] }, () => true, cat) }
    const [obj] = await serializers.get('dockets')!([row], ctx)
    return stringify(obj)
  }
  const text = (id: number) => { const s = store.rendered('dockets', id); return s === undefined ? undefined : withOrigin(s, ORIGIN) }
  const apply = (events: AppliedEvent[]) => store.apply(events, [])
  return { store, renderer, live, text, apply }
}

/** Every docket 1..n: its text, once rendered, is the detail a request builds. */
async function agrees(t: Test, s: ReturnType<typeof setup>, ids: number[], what: string) {
  let same = 0
  for (const id of ids) {
    const want = await s.live(id)
    const got = s.text(id)
    if (got === want) same++
    else t.fail(`${what}: docket ${id} ${got === undefined ? 'has no text' : 'differs'}${got ? `\n  text: ${got.slice(0, 300)}\n  live: ${String(want).slice(0, 300)}` : ''}`)
  }
  t.equal(same, ids.length, `${what}: every text is the detail a request builds`)
}

t.test('texts equal the built details, and follow every row they show', async (t) => {
  const s = setup(t)
  const ids = Array.from({ length: 12 }, (_, i) => i + 1)
  await s.apply([
    up('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts }),
    up('people', { id: 1, name_last: 'Judge', slug: 'judge', date_created: ts, date_modified: ts }),
    up('originating-court-information', oci(50, 'Lower judge')),
    ...ids.map((id) => up('dockets', docket(id, id === 5 ? { original_court_info_id: 50 } : id === 9 ? { original_court_info_id: 51 } : {}))),
    up('clusters', cluster(101, 3)), up('clusters', cluster(102, 3)), up('clusters', cluster(103, 4)),
  ])
  t.ok(s.store.staleRenders(100).length >= 12, 'new dockets wait to be rendered')
  await s.renderer.drain()
  t.same(s.store.staleRenders(100), [], 'nothing left to render')
  await agrees(t, s, ids, 'after the first render')
  t.match(s.text(3), /clusters\/101\/.*clusters\/102\//, 'related sets are in the text')
  t.match(s.text(5), /Lower judge/, 'embedded rows are in the text')

  const changes: [string, AppliedEvent[], number[]][] = [
    ['a cluster joins docket 3', [up('clusters', cluster(104, 3))], [3]],
    ['a cluster moves from docket 3 to 4', [up('clusters', cluster(101, 4))], [3, 4]],
    ['a cluster is deleted', [del('clusters', 103)], [4]],
    ['the embedded row of docket 5 changes', [up('originating-court-information', oci(50, 'Another judge'))], [5]],
    ['the row docket 9 points to appears', [up('originating-court-information', oci(51, 'Late judge'))], [9]],
    ['docket 6 is renamed', [up('dockets', docket(6, { case_name: 'Renamed' }))], [6]],
  ]
  for (const [what, events, touched] of changes) {
    await s.apply(events)
    for (const id of touched) t.equal(s.text(id), undefined, `${what}: docket ${id} has no text until it is rendered again`)
    t.ok(s.text(1) !== undefined, `${what}: an unrelated docket keeps its text`)
    await s.renderer.drain()
    await agrees(t, s, ids, what)
  }
  t.match(s.text(9), /Late judge/)
  t.notMatch(s.text(3), /clusters\/101\//, 'the moved cluster left docket 3')

  await s.apply([del('dockets', 7)])
  await s.renderer.drain()
  t.equal(s.text(7), undefined, 'a deleted docket has no text')
  t.same(s.store.staleRenders(10), [], 'and is not left to render')
})

t.test('a change that lands while a detail renders keeps the render from being stored', async (t) => {
  const s = setup(t)
  await s.apply([up('dockets', docket(1)), up('clusters', cluster(101, 1))])
  await s.renderer.drain()
  t.ok(s.text(1))
  // Render docket 1 by hand up to the point of storing it, then change a row it read.
  await s.apply([up('dockets', docket(1, { case_name: 'Before' }))])
  const [stale] = s.store.staleRenders(10)
  t.same(stale, { resource: 'dockets', key: 1 })
  const own = s.store.stored('dockets', 1)!
  const early = { resource: 'dockets', key: 1, text: 'stale text', rows: [{ resource: 'dockets', key: 1, v: own.v }], refs: [{ resource: 'clusters', column: 'docket_id', value: 1, version: s.store.refSetVersion('clusters', 'docket_id', 1) }] }
  await s.apply([up('clusters', cluster(102, 1))])
  t.equal(await s.store.putRendered([early]), 0, 'a ref set it read changed: not stored')
  await s.apply([up('dockets', docket(1, { case_name: 'After' }))])
  t.equal(await s.store.putRendered([{ ...early, refs: [{ ...early.refs[0], version: s.store.refSetVersion('clusters', 'docket_id', 1) }] }]), 0, 'its own row changed: not stored')
  t.equal(s.text(1), undefined)
  await s.renderer.drain()
  t.match(s.text(1), /"case_name":"After"/)
  t.match(s.text(1), /clusters\/102\//)
})

t.test('a detail whose data holds the origin mark is served as built, not rendered', async (t) => {
  const s = setup(t)
  await s.apply([up('dockets', docket(1, { case_name: `See ${ORIGIN_MARK}/x` })), up('dockets', docket(2))])
  await s.renderer.drain()
  t.equal(s.text(1), undefined, 'no text')
  t.ok(s.text(2), 'the others are rendered')
  t.same(s.store.staleRenders(10), [], 'and it is not rendered again and again')
})

t.test('texts are read from the store\'s bytes as msgpack would decode them', async (t) => {
  const { pack } = await import('msgpackr')
  for (const length of [0, 1, 31, 32, 255, 256, 2400, 65535, 65536, 200_000]) {
    for (const text of ['a'.repeat(length), 'é'.repeat(Math.floor(length / 2)), `{"x":"${'日本'.repeat(Math.floor(length / 6))}"}`]) {
      t.equal(msgpackText(pack(text)), text, `a string of ${Buffer.byteLength(text)} bytes`)
    }
  }
  for (const value of [1, { text: 'a' }, ['a'], null, Buffer.from('abc')]) t.equal(msgpackText(pack(value)), undefined, `${JSON.stringify(value)} is not taken for a text`)
  // lmdb-js lends a longer buffer whose length is set to the value's.
  const lent = Buffer.alloc(64, 0x61)
  pack('hello').copy(lent)
  Object.defineProperty(lent, 'length', { value: 6, writable: true, configurable: true })
  t.equal(msgpackText(lent), 'hello', 'a value in a longer buffer is read to its own length')
})

t.test('warming reads every rendered detail once, in chunks, within its bound', async (t) => {
  const s = setup(t)
  const ids = Array.from({ length: 1_234 }, (_, i) => i + 1)
  await s.apply(ids.map((id) => up('dockets', docket(id))))
  await s.renderer.drain()
  t.equal(ids.filter((id) => s.text(id) !== undefined).length, ids.length, 'every docket rendered')
  const all = await s.store.warmRendered({ maxBytes: 2 ** 40, stopped: () => false })
  t.match(all, { entries: ids.length }, 'each rendered detail read once, past the chunk size')
  t.ok(all.bytes > 0, 'its size in pages')
  t.same(await s.store.warmRendered({ maxBytes: all.bytes - 1, stopped: () => false }), { skipped: 'too large', bytes: all.bytes }, 'not read when larger than the bound')
  let turns = 0
  t.same(await s.store.warmRendered({ maxBytes: 2 ** 40, stopped: () => turns++ > 0 }), { skipped: 'stopped', bytes: all.bytes }, 'a stop ends it between chunks')
})
