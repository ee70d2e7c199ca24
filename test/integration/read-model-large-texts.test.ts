/**
 * Large texts (fields marked `large`) are not in the read model: the store holds opinions, citation
 * texts and archive documents without them, and details and lists that show them fetch them from
 * ClickHouse by key. Answers are the ones built from ClickHouse alone, byte for byte; a text changed
 * upstream shows its new value (the cache is keyed by row version); a row whose version ClickHouse
 * does not hold is never completed with another version's texts. The texts are read from their side
 * table (`<table>_texts`), which the main table's inserts fill, and a migration fills from the rows
 * an existing deployment already holds.
 */
import t from 'tap'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { compileSerializers } from '../../api/engine/serialize.js'
import { citationOverlays } from '../../api/plugins/citation-overlays.js'
import { compileReader } from '../../api/engine/list.js'
import type { RequestContext } from '../../api/engine/context.js'
import { clickhouseSource } from '../../api/engine/source.js'
import { createLargeTexts } from '../../api/read-model/large-texts.js'
import { largeColumnsOf } from '../../api/read-model/refs.js'
import { createDb } from '../../core/clickhouse.js'
import { migrate } from '../../core/migrate.js'
import { sql, ident } from '../../core/sql.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
const stamps = { date_created: ts, date_modified: ts }
const opinion = (id: number, text: string) => ({
  id, cluster_id: 101, type: '020lead', ...stamps, author_str: `Author ${id}`,
  plain_text: `${text} plain ${'word '.repeat(400)}`, html: `<p>${text} html</p>`, html_with_citations: `<p>${text} linked</p>`,
  xml_scan: `<x>${text}</x>`, html_anon_2020: '', html_partner_a: `<a>${text}</a>`, html_partner_b: '', xml_partner_c: '',
})

t.test('large texts come from ClickHouse, as a read without the read model shows them', async (t) => {
  const rt = await testStack(t, { LDS_READ_MODEL_TEXTS: 'clickhouse' })
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  await pub.upsert('dockets', { id: 1, court_id: 'scotus', case_name: 'Case 1', docket_number: '1-cv', source: 0, ...stamps })
  await pub.upsert('clusters', { id: 101, docket_id: 1, case_name: 'Case 1', slug: 'case-1', date_filed: '2024-01-02', ...stamps })
  for (let id = 1001; id <= 1025; id++) await pub.upsert('opinions', opinion(id, `Opinion ${id}`))
  // The citation network's linked text of one opinion, shown as its html_with_citations (an overlay, large too).
  await pub.upsert('citation-texts', { id: 1001, html_with_citations: '<p>the network linked this</p>', cited_clusters_ids: [] })
  await pub.upsert('docket-entries', { id: 301, docket_id: 1, entry_number: 1, description: 'Complaint', ...stamps })
  for (const d of [401, 402]) await pub.upsert('archive-documents', { id: d, docket_entry_id: 301, docket_id: 1, document_type: 1, plain_text: `document ${d} text`, document_number: '1', ...stamps })
  await pub.flush()
  const expected: Record<string, number> = { opinions: 25, citation_texts: 1, archive_documents: 2, docket_entries: 1 }
  await waitFor(async () => { for (const [table, n] of Object.entries(expected)) if ((await countFinal(rt, table)) !== n) return false; return true }, 'the sink applied everything', 60_000)

  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'reader', { app })
  const store = app.readModel!.store
  await waitFor(async () => app.readModel!.caughtUp() && store.get('opinions', 1025) !== undefined && store.get('archive-documents', 402) !== undefined && store.get('citation-texts', 1001) !== undefined, 'the read model caught up')

  t.test('the store holds no large text', async (t) => {
    for (const [resource, cols] of largeColumnsOf(rt.catalogue)) {
      const key = { opinions: 1001, 'citation-texts': 1001, 'archive-documents': 401 }[resource]
      if (key === undefined) continue
      const row = store.get(resource, key)
      t.ok(row, `${resource} ${key} stored`)
      t.same(cols.filter((c) => row && c in row), [], `${resource} ${key} without ${cols.join(', ')}`)
    }
    t.equal(store.get('opinions', 1001)?.author_str, 'Author 1001', 'and with its other columns')
  })

  // What a read from ClickHouse alone builds, with the same serializers.
  const serializers = compileSerializers(rt.catalogue, citationOverlays)
  const fromTables = (resource: string) => compileReader(rt.catalogue, rt.catalogue.get(resource), serializers.get(resource)!, rt.db.database)
  const chCtx: RequestContext = { db: rt.db, catalogue: rt.catalogue, origin: 'http://x.test', version: 'v4', user: null }
  const request = (url: string) => { const u = new URL(url, 'http://x.test'); return { params: new Map([...u.searchParams.keys()].map((k) => [k, u.searchParams.getAll(k)])), url: u } }
  const get = async (url: string) => {
    const res = await app.inject({ url, headers: { authorization: `Token ${token}`, host: 'x.test' } })
    t.equal(res.statusCode, 200, `${url} answers 200`)
    return res.body
  }

  t.test('details and lists show the texts, equal to a read from ClickHouse', async (t) => {
    for (const [resource, id] of [['opinions', 1001], ['opinions', 1002], ['docket-entries', 301], ['archive-documents', 402]] as const) {
      const url = `/api/rest/v4/${resource}/${id}/`
      const built = await fromTables(resource).detail(String(id), request(url), chCtx)
      const body = await get(url)
      t.equal(body, JSON.stringify(built), `${url}: the same bytes as built from ClickHouse`)
      t.equal(await get(url), body, `${url} again (cached texts): the same bytes`)
    }
    const detail = JSON.parse(await get('/api/rest/v4/opinions/1002/'))
    t.match(detail.plain_text, /^Opinion 1002 plain word/, 'the opinion text')
    t.equal(detail.html_partner_a, '<a>Opinion 1002</a>')
    t.equal(JSON.parse(await get('/api/rest/v4/opinions/1001/')).html_with_citations, '<p>the network linked this</p>', 'the linked text of the citation network')
    t.equal(JSON.parse(await get('/api/rest/v4/docket-entries/301/')).archive_documents[1].plain_text, 'document 402 text', 'nested documents with their texts')
    // Answers that leave the texts out (fields=, omit=) read no texts, and show what they showed before.
    const allTexts = largeColumnsOf(rt.catalogue).get('opinions')!.join(',')
    for (const url of ['/api/rest/v4/opinions/1005/?fields=id,cluster,author_str', `/api/rest/v4/opinions/1006/?omit=${allTexts}`, '/api/rest/v4/opinions/1007/?omit=plain_text', '/api/rest/v4/opinions/1001/?fields=id,html_with_citations', '/api/rest/v4/opinions/1008/?fields=']) {
      const built = await fromTables('opinions').detail(url.split('/')[5], request(url), chCtx)
      t.equal(await get(url), JSON.stringify(built), `${url}: the same bytes as built from ClickHouse`)
    }
    t.match(JSON.parse(await get('/api/rest/v4/opinions/1005/')).plain_text, /^Opinion 1005 plain/, 'the texts again without fields= (no object kept without them)')
    for (const url of ['/api/rest/v4/opinions/?order_by=id', '/api/rest/v4/opinions/?order_by=-id&page=2', '/api/rest/v4/opinions/?order_by=id&fields=id,plain_text',
      '/api/rest/v4/opinions/?order_by=id&fields=id,author_str', `/api/rest/v4/opinions/?order_by=-id&omit=${allTexts}`, '/api/rest/v4/docket-entries/?order_by=id']) {
      const built = await fromTables(url.split('/')[4]).list(request(url), chCtx) as { results: unknown[] }
      const body = JSON.parse(await get(url)) as { results: unknown[] }
      t.ok(body.results.length > 0, `${url} lists rows`)
      t.equal(JSON.stringify(body.results), JSON.stringify(built.results), `${url}: the same rows as built from ClickHouse`)
    }
  })

  t.test('a text changed upstream shows its new value', async (t) => {
    const before = JSON.parse(await get('/api/rest/v4/opinions/1003/'))
    t.match(before.plain_text, /^Opinion 1003 plain/)
    const written = await pub.write('opinions', { upsert: opinion(1003, 'Revised 1003') })
    t.ok(await app.readModel!.waitUntilApplied(written.topic, written.partition, written.offset, 30_000), 'the read model applied the change')
    t.ok(await app.watermarks!.waitUntilApplied(written.topic, written.partition, written.offset, 30_000), 'the sink applied it')
    const after = JSON.parse(await get('/api/rest/v4/opinions/1003/'))
    t.match(after.plain_text, /^Revised 1003 plain/, 'the new text, not the one kept from before')
    t.equal(after.html, '<p>Revised 1003 html</p>')
    const page = JSON.parse(await get('/api/rest/v4/opinions/?order_by=id&id__gte=1003&id__lte=1003'))
    t.equal(page.results[0]?.html, '<p>Revised 1003 html</p>', 'in a list too')
  })

  t.test('a row whose version ClickHouse does not hold gets no texts of another version', async (t) => {
    const r = rt.catalogue.get('opinions')
    const texts = createLargeTexts({ db: rt.db, catalogue: rt.catalogue, maxBytes: 2 ** 20, fallback: clickhouseSource(rt.db, rt.catalogue), retryDelaysMs: [1, 1] })
    const s = store.stored('opinions', 1004)!
    const [current] = await texts.complete(r, [{ row: s.row!, v: s.v }])
    t.match(current.plain_text, /^Opinion 1004 plain/, 'at the version ClickHouse holds: its texts')
    t.equal(texts.cache.size, 1, 'kept')
    // A read model ahead of ClickHouse (a version the sink has yet to apply), and one behind it.
    const ahead = await texts.complete(r, [{ row: { ...s.row!, author_str: 'newer' }, v: s.v + 1_000_000 }])
    t.equal(ahead.length, 1)
    t.equal(ahead[0].author_str, 'Author 1004', 'ahead: ClickHouse\'s whole row, consistent in itself, not its texts under the newer row')
    const behind = await texts.complete(r, [{ row: { ...s.row!, author_str: 'older' }, v: s.v - 1 }])
    t.equal(behind[0].author_str, 'Author 1004', 'behind: ClickHouse\'s whole row')
    t.equal(texts.cache.size, 1, 'neither kept')
    const again = await texts.complete(r, [{ row: s.row!, v: s.v }])
    t.same(again, [current], 'the kept texts at the row\'s version')
  })

  const texts = (table: string, key: number) => rt.db.query<Record<string, unknown>>(sql`SELECT * FROM ${ident(rt.db.database)}.${ident(`${table}_texts`)} FINAL WHERE id = ${key}`)

  t.test('the side tables are filled by the sink\'s inserts, at the main table\'s versions', async (t) => {
    for (const [table, n] of [['opinions', 25], ['citation_texts', 1], ['archive_documents', 2]] as const) {
      t.equal(await countFinal(rt, `${table}_texts`), n, `${table}_texts: a row per ${table} row`)
    }
    const [main] = await rt.db.query<Record<string, unknown>>(sql`SELECT id, _version, plain_text, html FROM ${ident(rt.db.database)}.opinions FINAL WHERE id = 1003`)
    const [side] = await texts('opinions', 1003)
    t.same({ id: side.id, _version: side._version, plain_text: side.plain_text, html: side.html }, main, 'the changed opinion: its latest version in both')
    t.notOk('author_str' in side, 'only the large columns')
  })

  t.test('a read takes the texts of the side table at the read model\'s version', async (t) => {
    // Mark the side table's row of 1009 (same key and version, a higher-numbered part wins under FINAL):
    // a reader that took its texts from the main table would not show the mark.
    const [row] = await texts('opinions', 1009)
    await rt.db.insert('opinions_texts', [{ ...row, plain_text: 'from the side table' }])
    const fresh = createLargeTexts({ db: rt.db, catalogue: rt.catalogue, maxBytes: 2 ** 20, fallback: clickhouseSource(rt.db, rt.catalogue), retryDelaysMs: [1] })
    const s = store.stored('opinions', 1009)!
    t.equal(Number(row._version), s.v, 'the side table holds the read model\'s version')
    const [done] = await fresh.complete(rt.catalogue.get('opinions'), [{ row: s.row!, v: s.v }])
    t.equal(done.plain_text, 'from the side table')
    t.equal(done.author_str, 'Author 1009', 'the rest of the row is the read model\'s')
  })

  t.test('an existing deployment: the migration makes the side table and fills it from the main table once', async (t) => {
    const db = rt.db.database
    await rt.db.command(sql`DROP VIEW ${ident(db)}.${ident('opinions_texts_mv')}`)
    await rt.db.command(sql`DROP TABLE ${ident(db)}.${ident('opinions_texts')}`)
    const notices: string[] = []
    const admin = createDb(rt.cfg, { useDatabase: false })
    t.teardown(() => admin.close())
    const applied = await migrate(admin, rt.catalogue, () => {}, (m) => notices.push(m), rt.cfg.clickhouseCluster, { textTables: true })
    t.same(applied.map((m) => m.id), ['create:opinions_texts', 'view:opinions_texts_mv', 'fill:opinions_texts'])
    t.match(notices.join('\n'), /fill:opinions_texts: copying the large texts/, 'the copy is said')
    t.equal(await countFinal(rt, 'opinions_texts'), 25, 'every opinion\'s texts')
    const [side] = await texts('opinions', 1003)
    t.match(side.plain_text, /^Revised 1003 plain/, 'at the latest version')
    t.same(await migrate(admin, rt.catalogue, () => {}, () => {}, rt.cfg.clickhouseCluster, { textTables: true }), [], 'once')
    // A fill stopped midway (no record of it): the next migration fills again.
    await rt.db.command(sql`DELETE FROM ${ident(db)}.${ident('_migrations')} WHERE id = 'fill:opinions_texts'`)
    t.same((await migrate(admin, rt.catalogue, () => {}, () => {}, rt.cfg.clickhouseCluster, { textTables: true })).map((m) => m.id), ['fill:opinions_texts'], 'a fill not recorded is made again')
    t.equal(await countFinal(rt, 'opinions_texts'), 25, 'the same rows once merged')
    // And the view keeps it from there: a new version written through the sink shows in a read.
    const written = await pub.write('opinions', { upsert: opinion(1010, 'Revised 1010') })
    t.ok(await app.readModel!.waitUntilApplied(written.topic, written.partition, written.offset, 30_000), 'the read model applied the change')
    t.ok(await app.watermarks!.waitUntilApplied(written.topic, written.partition, written.offset, 30_000), 'the sink applied it')
    t.match(JSON.parse(await get('/api/rest/v4/opinions/1010/')).plain_text, /^Revised 1010 plain/)
    t.match((await texts('opinions', 1010))[0].plain_text, /^Revised 1010 plain/, 'in the side table')
  })

  t.test('a deployment that reads texts from its read model keeps no view copying them', async (t) => {
    const admin = createDb(rt.cfg, { useDatabase: false })
    t.teardown(() => admin.close())
    const views = async () => (await rt.db.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${rt.db.database} AND engine = 'MaterializedView' ORDER BY name`)).map((r) => r.name)
    t.same(await views(), ['archive_documents_texts_mv', 'citation_texts_texts_mv', 'opinions_texts_mv'], 'clickhouse mode: a view per table with large texts')
    const local = await migrate(admin, rt.catalogue, () => {}, () => {}, rt.cfg.clickhouseCluster, { textTables: false })
    t.same(local.map((m) => m.id).sort(), ['drop:archive_documents_texts_mv', 'drop:citation_texts_texts_mv', 'drop:opinions_texts_mv'], 'local mode: the views are dropped, nothing else')
    t.same(await views(), [])
    t.same(await migrate(admin, rt.catalogue, () => {}, () => {}, rt.cfg.clickhouseCluster, { textTables: false }), [], 'and stay so')
    const back = await migrate(admin, rt.catalogue, () => {}, () => {}, rt.cfg.clickhouseCluster, { textTables: true })
    t.same(back.map((m) => m.id).filter((id) => id.startsWith('view:')).sort(), ['view:archive_documents_texts_mv', 'view:citation_texts_texts_mv', 'view:opinions_texts_mv'], 'clickhouse mode again: made again')
    t.ok(back.some((m) => m.id === 'fill:opinions_texts'), 'and filled again')
  })

  t.test('reads that come together share a query, each with its own rows', async (t) => {
    let queries = 0
    const counted = { ...rt.db, query: ((q, o) => { queries++; return rt.db.query(q, o) }) as typeof rt.db.query }
    const shared = createLargeTexts({ db: counted, catalogue: rt.catalogue, maxBytes: 0, fallback: clickhouseSource(rt.db, rt.catalogue), maxQueries: 1 })
    const r = rt.catalogue.get('opinions')
    const ids = [1011, 1012, 1013, 1014, 1015, 1016]
    const done = await Promise.all(ids.map((id) => { const s = store.stored('opinions', id)!; return shared.complete(r, [{ row: s.row!, v: s.v }]) }))
    t.same(done.map((rows) => rows.map((x) => x.id)), ids.map((id) => [id]), 'each read its own row')
    t.same(done.map(([x]) => String(x.plain_text).split(' plain')[0]), ids.map((id) => `Opinion ${id}`), 'with its own texts')
    t.equal(queries, 1, 'six reads in one turn: one query')
    queries = 0
    const more = await Promise.all([1017, 1018, 1019].map(async (id, i) => {
      await new Promise((resolve) => setTimeout(resolve, i))
      const s = store.stored('opinions', id)!
      return shared.complete(r, [{ row: s.row!, v: s.v }])
    }))
    t.same(more.map(([x]) => x.id), [1017, 1018, 1019])
    t.ok(queries <= 3, `reads apart: a query each at most (${queries})`)
  })
})
