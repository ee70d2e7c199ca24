/**
 * Lists answered from the read model's list indexes agree with the same lists chosen by ClickHouse:
 * count, page links, cursors and rows, over dockets and docket entries with ties, NULL and empty
 * dates, rows moved between courts and deleted rows; and the indexes are really used for the lists
 * they cover (the agreement would hold trivially otherwise).
 */
import t from 'tap'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { compileReader, type ListRequest } from '../../api/engine/list.js'
import { compileSerializers } from '../../api/engine/serialize.js'
import { readModelSource, clickhouseSource } from '../../api/engine/source.js'
import { refColumnsOf } from '../../api/read-model/refs.js'
import { listIndexAccess } from '../../api/read-model/list-access.js'
import type { RequestContext } from '../../api/engine/context.js'
import { createRng } from '../../connectors/sample/random.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
const COURTS = ['scotus', 'ca9', 'nyed']
const DATES = ['1999-12-31', '2001-01-01', '2001-01-02', '2010-06-15', '2024-01-02', '', null]
// Change times as connectors write them: one instant in several offsets and fraction lengths (ties), a
// fraction ClickHouse cuts, and an offset that crosses midnight.
const MODIFIED = ['2024-03-01T10:00:00.123456+00:00', '2024-03-01T10:00:00.123456Z', '2024-03-01T15:30:00.123456+05:30', '2024-03-01T10:00:00+00:00',
  '2024-03-01T09:59:59.9999999Z', '2023-12-31T23:00:00-02:00', '2024-03-01 10:00:00.5', '2024-02-29T23:59:59.000001Z']

t.test('list indexes answer as ClickHouse does', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const rng = createRng(7)
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]
  for (const c of COURTS) await pub.upsert('courts', { id: c, full_name: c, short_name: c, jurisdiction: 'F', position: 1, date_modified: ts })
  const docket = (id: number) => ({ id, court_id: pick(COURTS), case_name: `Case ${id}`, docket_number: `${id}-cv`, source: 0, date_created: ts, date_modified: pick(MODIFIED), date_filed: pick(DATES) })
  for (let i = 1; i <= 240; i++) await pub.upsert('dockets', docket(i))
  // Moved to another court or date, and deleted: the index must drop the old entries.
  for (let i = 1; i <= 240; i += 4) await pub.upsert('dockets', docket(i))
  for (let i = 3; i <= 240; i += 9) await pub.delete('dockets', i)
  const entry = (id: number) => ({ id, docket_id: 1 + (id % 3), entry_number: pick([1, 2, 3, 7, null]), date_filed: pick(DATES), description: `entry ${id}`, date_created: ts, date_modified: ts })
  for (let i = 1; i <= 90; i++) await pub.upsert('docket-entries', entry(i))
  for (let i = 5; i <= 90; i += 11) await pub.delete('docket-entries', i)
  await pub.flush()
  const docketsLeft = 240 - Math.ceil(238 / 9)
  await waitFor(async () => (await countFinal(rt, 'dockets')) === docketsLeft && (await countFinal(rt, 'docket_entries')) === 90 - 8, 'the sink applied everything', 60_000)

  const app = await buildApp(rt)
  t.teardown(() => app.close())
  await waitFor(async () => app.readModel!.caughtUp(), 'the read model caught up')
  const lists = listIndexAccess(rt.cfg, app.readModel!, app.watermarks!)
  await waitFor(async () => lists.usable('dockets') && lists.usable('docket-entries'), 'the read model holds what ClickHouse holds')
  let indexReads = 0
  const counted = { ...lists, store: { listRange: (...a: Parameters<typeof lists.store.listRange>) => { indexReads++; return lists.store.listRange(...a) }, listCount: lists.store.listCount } }

  const serializers = compileSerializers(rt.catalogue)
  const source = readModelSource(app.readModel!.store, refColumnsOf(rt.catalogue), clickhouseSource(rt.db, rt.catalogue), () => true, rt.catalogue)
  const ctx = (version: 'v3' | 'v4', withIndex: boolean): RequestContext => ({ db: rt.db, catalogue: rt.catalogue, origin: 'http://x.test', version, user: null, source, lists: withIndex ? counted : undefined })
  const readers = new Map(['dockets', 'docket-entries'].map((n) => [n, compileReader(rt.catalogue, rt.catalogue.get(n), serializers.get(n)!, rt.db.database)]))
  const request = (url: string): ListRequest => {
    const u = new URL(url)
    const params = new Map<string, string[]>()
    for (const [k, v] of u.searchParams) params.set(k, [...(params.get(k) ?? []), v])
    return { params, url: u }
  }
  const shape = (answer: any) => ({ ...answer, results: answer.results?.map((o: any) => o.id) })

  /** The answer both ways, then each page its `next` link leads to, up to four. */
  async function agree(resource: string, query: string, version: 'v3' | 'v4', expectIndex: boolean) {
    let url: string | null = `http://x.test/api/rest/${version}/${resource}/?${query}`
    for (let page = 0; url && page < 4; page++) {
      const before = indexReads
      const viaIndex = shape(await readers.get(resource)!.list(request(url), ctx(version, true)))
      const used = indexReads > before
      const viaTables = shape(await readers.get(resource)!.list(request(url), ctx(version, false)))
      t.same(viaIndex, viaTables, `${version} ${resource}?${query} page ${page + 1}`)
      if (page === 0 && expectIndex !== used && !(typeof viaTables.count === 'number' && viaTables.count === 0)) {
        t.fail(`${resource}?${query}: the index was ${used ? '' : 'not '}used`)
      }
      url = typeof viaTables.next === 'string' ? viaTables.next : null
    }
  }

  const dateBounds = ['date_filed__gte=2001-01-01', 'date_filed__gt=2001-01-01', 'date_filed__lt=2010-06-15', 'date_filed__lte=2010-06-15',
    'date_filed=2001-01-02', 'date_filed__range=2001-01-01,2010-06-15', 'date_filed__gte=2001-01-02&date_filed__lt=2024-01-02', 'date_filed__gte=2030-01-01']
  for (const version of ['v4', 'v3'] as const) {
    for (const court of COURTS) {
      for (const order of ['', 'order_by=-date_filed', 'order_by=date_filed', 'order_by=id', 'order_by=-id']) {
        await agree('dockets', [`court=${court}`, order].filter(Boolean).join('&'), version, true)
      }
      for (const bound of dateBounds) await agree('dockets', `court=${court}&${bound}&order_by=-date_filed`, version, true)
      await agree('dockets', `court=${court}&id__gt=100&order_by=id`, version, true)
      await agree('dockets', `court=${court}&order_by=-date_filed&page=2`, version, true)
      await agree('dockets', `court=${court}&order_by=date_filed&page=last`, version, true)
      await agree('dockets', `court=${court}&order_by=-date_filed&page_size=5`, version, true)
    }
    for (const bound of dateBounds) await agree('dockets', `${bound}&order_by=date_filed`, version, true)
    // The whole table: newest first (the default) and by change time, as a mirror walks it.
    for (const order of ['', 'order_by=id', 'order_by=date_modified', 'order_by=-date_modified']) await agree('dockets', order, version, true)
    for (const bound of ['date_modified__gte=2024-03-01T10:00:00.123456Z', 'date_modified__gt=2024-03-01T15:30:00.123456%2B05:30', 'date_modified__lt=2024-03-01',
      'date_modified__lte=2024-03-01T10:00:00.5', 'date_modified=2024-03-01T10:00:00.123456', 'date_modified__range=2024-01-01,2024-03-01T10:00:00',
      'date_modified__gte=2024-01-01T01:00:00Z&date_modified__lt=2024-03-01T10:00:00.123456']) {
      for (const order of ['order_by=date_modified', 'order_by=-date_modified']) await agree('dockets', `${bound}&${order}`, version, true)
    }
    for (const d of [1, 2, 3]) {
      for (const order of ['', 'order_by=entry_number', 'order_by=-entry_number', 'order_by=-date_filed', 'order_by=id']) {
        await agree('docket-entries', [`docket=${d}`, order].filter(Boolean).join('&'), version, true)
      }
      await agree('docket-entries', `docket=${d}&entry_number__gte=2&order_by=entry_number`, version, true)
    }
  }
  // Not covered: ClickHouse answers, and the same way as before.
  for (const query of ['court!=scotus&order_by=-date_filed', 'court=scotus&court=ca9&order_by=-date_filed', 'court=scotus&docket_number=5-cv',
    'court__full_name=ca9&order_by=-date_filed', 'court=scotus&order_by=date_modified', 'court=scotus&order_by=-date_filed,id',
    'order_by=date_modified&date_modified__gte=1850-01-01', 'order_by=date_created']) {
    await agree('dockets', query, 'v4', false)
  }
  const countOn = async (withIndex: boolean) => readers.get('dockets')!.list(request('http://x.test/api/rest/v4/dockets/?court=ca9&date_filed__gte=2001-01-01&count=on'), ctx('v4', withIndex))
  t.same(await countOn(true), await countOn(false), 'count=on')

  t.test('through the API: an indexed list never shows a row deleted before the request', async (t) => {
    const token = await testUser(rt, 'lister', { app })
    const ids = async () => (await app.inject({ url: '/api/rest/v4/dockets/?court=ca9&order_by=-id&fields=id', headers: { authorization: `Token ${token}`, host: 'x.test' } }))
      .json().results.map((r: { id: number }) => r.id)
    const first = await ids()
    t.ok(first.length > 0)
    t.same(await ids(), first, 'asked twice: now kept by the list cache')
    t.same(await ids(), first, 'and served from it')
    const written = await pub.write('dockets', { delete: first[0] })
    // What a write waits for before it answers: the sink has applied it.
    t.ok(await app.watermarks!.waitUntilApplied(written.topic, written.partition, written.offset, 20_000), 'the sink applied the delete')
    t.notOk((await ids()).includes(first[0]), 'the deleted docket is not listed')
  })

  t.test('an index that lags the sink is not used', async (t) => {
    const lagging = listIndexAccess(rt.cfg, app.readModel!, { appliedOf: (topic) => new Map([...app.watermarks!.appliedOf(topic)].map(([p, o]) => [p, o + 1n])) })
    t.notOk(lagging.usable('dockets'), 'the sink is ahead of the read model')
  })
})
