import t from 'tap'
import {
  EVENT_TYPES, EVENT_TYPE_IDS, eventTypeName, buildEnvelope, serializeEnvelope, isoTimestamp,
  docketAlertPayload, searchAlertPayload, archiveFetchPayload, isArchiveFetchEventStatus, oldDocketAlertsPayload,
  prayAndPayPayload, samplePayload, ARCHIVE_DOCUMENT_KEYS, DOCKET_ENTRY_KEYS, ARCHIVE_FETCH_KEYS, toId,
  type EventTypeId, type WebhookVersion,
} from '../../../domain/webhooks/index.js'

t.test('event types as data', async (t) => {
  t.same(EVENT_TYPE_IDS, [1, 2, 3, 4, 5])
  t.same(Object.entries(EVENT_TYPES).map(([name, v]) => [v.id, name]), [
    [1, 'DOCKET_ALERT'], [2, 'SEARCH_ALERT'], [3, 'ARCHIVE_FETCH'], [4, 'OLD_DOCKET_ALERTS_REPORT'], [5, 'PRAY_AND_PAY'],
  ])
  t.equal(eventTypeName(4), 'OLD_DOCKET_ALERTS_REPORT')
  t.throws(() => eventTypeName(9), /unknown webhook event type 9/)
})

t.test('envelope: webhook header then payload; v1 carries its deprecation date', async (t) => {
  const payload = { id: 1, date_created: 'x', status: 2, archive_document: 3 }
  const v1 = buildEnvelope({ event_type: 5, version: 1, date_created: Date.UTC(2024, 0, 2, 3, 4, 5, 120) }, payload)
  t.same(v1, {
    webhook: { version: 1, event_type: 5, date_created: '2024-01-02T03:04:05.120000+00:00', deprecation_date: '2024-11-18T00:00:00+00:00' },
    payload,
  })
  t.same(Object.keys(v1.webhook), ['version', 'event_type', 'date_created', 'deprecation_date'])
  t.same(Object.keys(v1), ['webhook', 'payload'])
  const v2 = buildEnvelope({ event_type: 1, version: 2, date_created: '2023-05-01T00:00:00+00:00' }, { results: [] })
  t.equal(v2.webhook.deprecation_date, null)
  t.equal(v2.webhook.date_created, '2023-05-01T00:00:00+00:00')
  t.equal(serializeEnvelope(v2), '{"webhook":{"version":2,"event_type":1,"date_created":"2023-05-01T00:00:00+00:00","deprecation_date":null},"payload":{"results":[]}}')
  t.throws(() => buildEnvelope({ event_type: 1, version: 2, date_created: 0 }, {}), /needs a payload/)
  t.throws(() => buildEnvelope({ event_type: 7 as EventTypeId, version: 2, date_created: 0 }, { a: 1 }), /unknown webhook event type/)
  t.throws(() => buildEnvelope({ event_type: 1, version: 3 as WebhookVersion, date_created: 0 }, { a: 1 }), /unknown webhook version/)
  t.equal(isoTimestamp(0), '1970-01-01T00:00:00.000000+00:00')
})

const DOC = {
  resource_uri: 'https://x/api/rest/v4/archive-documents/9/', id: 9, tags: ['https://x/tag/1/'], plain_text: 'secret text',
  absolute_url: '/d/9/', date_created: 'T', date_modified: 'T', date_upload: null, document_type: 1, document_number: '1',
  attachment_number: null, records_doc_id: '0123', is_available: true, is_free_on_records: false, is_sealed: false, sha1: 'ab',
  page_count: 3, file_size: 100, filepath_local: 'a.pdf', filepath_ia: '', ia_upload_failure_count: null, thumbnail: null,
  thumbnail_status: 0, ocr_status: null, description: 'Order', acms_document_guid: '',
}

t.test('docket alert: entries without resource_uri/tags, docket as id, documents trimmed', async (t) => {
  const entry = {
    resource_uri: 'https://x/api/rest/v4/docket-entries/5/', id: 5, docket: 'https://x/api/rest/v4/dockets/77/', tags: [],
    date_created: 'T', date_modified: 'T', date_filed: '2024-01-01', time_filed: null, entry_number: 3,
    archive_sequence_number: '2024-01-01.001', records_sequence_number: 2, description: 'MOTION', archive_documents: [DOC],
  }
  const p = docketAlertPayload([entry])
  t.same(Object.keys(p), ['results'])
  const [e] = p.results
  t.same(Object.keys(e), [...DOCKET_ENTRY_KEYS])
  t.equal(e.docket, 77)
  t.notOk('resource_uri' in e)
  t.notOk('tags' in e)
  const [d] = e.archive_documents as Record<string, unknown>[]
  t.same(Object.keys(d), [...ARCHIVE_DOCUMENT_KEYS])
  for (const k of ['resource_uri', 'tags', 'plain_text']) t.notOk(k in d, k)
  t.equal(docketAlertPayload([{ ...entry, docket: 77 }]).results[0].docket, 77)
  t.equal(toId({ id: '12' }), 12)
  t.equal(toId(null), null)
})

const ALERT = {
  resource_uri: 'https://x/api/rest/v4/alerts/4/', id: 4, user: 'https://x/users/8/', date_created: 'T', date_modified: 'T',
  date_last_hit: null, name: 'n', query: 'q=a&type=o', rate: 'rt', alert_type: 'o', secret_key: 'k',
}
const CLUSTER = {
  caseName: 'A v. B', cluster_id: 10, court_id: 'ca9', dateFiled: '2024-05-20', snippet: 'x',
  meta: { timestamp: 'TS', date_created: 'DC', score: { bm25: 2 } },
  opinions: [
    { id: 101, type: 'lead', snippet: 'a <mark>hit</mark>', meta: { timestamp: 'TS1', date_created: 'DC1' } },
    { id: 102, type: 'dissent', snippet: 'b', meta: { timestamp: 'TS2', date_created: 'DC2' } },
  ],
}

t.test('search alert: alert without resource_uri; v2 nests opinions; v1 flattens them', async (t) => {
  const v2 = searchAlertPayload({ version: 2, alertType: 'o', alert: ALERT, results: [CLUSTER] })
  t.same(v2.alert, { id: 4, user: 8, date_created: 'T', date_modified: 'T', date_last_hit: null, name: 'n', query: 'q=a&type=o', rate: 'rt', alert_type: 'o', secret_key: 'k' })
  t.same(v2.results, [{
    caseName: 'A v. B', cluster_id: 10, court_id: 'ca9', dateFiled: '2024-05-20', snippet: 'x',
    opinions: [
      { id: 101, type: 'lead', snippet: 'a <strong>hit</strong>', meta: { timestamp: 'TS1', date_created: 'DC1' } },
      { id: 102, type: 'dissent', snippet: 'b', meta: { timestamp: 'TS2', date_created: 'DC2' } },
    ],
    meta: { timestamp: 'TS', date_created: 'DC' },
  }])

  const v1 = searchAlertPayload({ version: 1, alertType: 'o', alert: ALERT, results: [CLUSTER] })
  t.equal(v1.results.length, 2, 'one row per opinion')
  t.same(v1.results[0], {
    caseName: 'A v. B', cluster_id: 10, court_id: 'ca9', dateFiled: '2024-05-20T00:00:00+00:00', snippet: 'a <strong>hit</strong>',
    id: 101, type: 'lead', court_exact: 'ca9', timestamp: 'TS',
  })
  t.equal(v1.results[1].id, 102)
  t.notOk('meta' in v1.results[0])
  t.notOk('opinions' in v1.results[0])
})

t.test('search alert: archive types and oral arguments', async (t) => {
  const docket = {
    docket_id: 5, caseName: 'C v. D', meta: { timestamp: 'TS', date_created: 'DC', score: { bm25: 1 }, more_docs: true },
    archive_documents: [{ id: 1, description: 'd1', meta: { timestamp: 'a', date_created: 'b' } }, { id: 2, description: 'd2', meta: {} }],
  }
  const r2 = searchAlertPayload({ version: 2, alertType: 'r', alert: { ...ALERT, alert_type: 'r' }, results: [docket] })
  t.same(r2.results[0].meta, { timestamp: 'TS', date_created: 'DC', more_docs: true }, 'no score, more_docs kept')
  t.same((r2.results[0].archive_documents as unknown[]).length, 2)
  const r1 = searchAlertPayload({ version: 1, alertType: 'r', alert: { ...ALERT, alert_type: 'r' }, results: [docket] })
  t.same(r1.results.map((r) => [r.docket_id, r.id, r.description]), [[5, 1, 'd1'], [5, 2, 'd2']], 'v1: one flat row per document')
  const d2 = searchAlertPayload({ version: 2, alertType: 'd', alert: { ...ALERT, alert_type: 'd' }, results: [{ ...docket, archive_documents: [] }] })
  t.same(d2.results[0].meta, { timestamp: 'TS', date_created: 'DC' })
  t.notOk('archive_documents' in d2.results[0])
  const oa = { id: 3, caseName: 'E v. F', dateArgued: '2024-02-02', court_id: 'scotus', meta: { timestamp: 'TS', date_created: 'DC', score: { bm25: 1 } } }
  const oa1 = searchAlertPayload({ version: 1, alertType: 'oa', alert: ALERT, results: [oa] })
  const oa2 = searchAlertPayload({ version: 2, alertType: 'oa', alert: ALERT, results: [oa] })
  t.same(oa1, oa2, 'oral argument results are identical in both versions')
  t.same(oa1.results[0], { id: 3, caseName: 'E v. F', dateArgued: '2024-02-02T00:00:00+00:00', court_id: 'scotus', court_exact: 'scotus', timestamp: 'TS' })
})

t.test('archive fetch, old docket alerts, pray-and-pay', async (t) => {
  const fetch = archiveFetchPayload({ id: 1, court: 'https://x/api/rest/v4/courts/nysd/', docket: null, archive_document: 'https://x/archive-documents/12/', status: 3, request_type: 2, message: 'unavailable', extra: 'dropped', user: 9 })
  t.same(Object.keys(fetch), [...ARCHIVE_FETCH_KEYS])
  t.equal(fetch.court, 'nysd')
  t.equal(fetch.archive_document, 12)
  t.equal(fetch.date_completed, null)
  t.notOk('user' in fetch)
  t.same([1, 2, 3, 4, 5, 6, 7].filter(isArchiveFetchEventStatus), [2, 3, 6, 7])

  const report = oldDocketAlertsPayload({
    old_alerts: [{ id: 1, date_created: 'T', date_modified: 'T', date_last_hit: null, docket: 'https://x/dockets/3/', secret_key: 's', alert_type: 1, user: 4 }],
    disabled_alerts: [],
  })
  t.same(report, { old_alerts: [{ id: 1, date_created: 'T', date_modified: 'T', date_last_hit: null, docket: 3, secret_key: 's', alert_type: 1 }], disabled_alerts: [] })

  t.same(prayAndPayPayload({ id: 1, date_created: 'T', status: 2, archive_document: 5, user: 3 }), { id: 1, date_created: 'T', status: 2, archive_document: 5 })
  t.throws(() => prayAndPayPayload({ id: 1, date_created: 'T', status: 1, archive_document: 5 }), /only for granted/)
})

t.test('a fixed sample per type and version, from the same shapers', async (t) => {
  for (const type of EVENT_TYPE_IDS) {
    for (const version of [1, 2] as WebhookVersion[]) {
      const s = samplePayload(type, version)
      t.ok(s && typeof s === 'object', `${type} v${version}`)
      t.same(samplePayload(type, version), s, 'stable')
      const env = buildEnvelope({ event_type: type, version, date_created: 0 }, s)
      t.equal(env.webhook.event_type, type)
    }
  }
  const v1 = samplePayload(2, 1) as { results: Record<string, unknown>[] }
  const v2 = samplePayload(2, 2) as { results: Record<string, unknown>[] }
  t.ok('opinions' in v2.results[0], 'v2 case law results nest opinions')
  t.notOk('opinions' in v1.results[0], 'v1 case law results are flat')
  t.same(samplePayload(1, 1), samplePayload(1, 2), 'other types are identical across versions')
  const mutable = samplePayload(5, 1) as Record<string, unknown>
  mutable.id = -1
  t.not((samplePayload(5, 1) as Record<string, unknown>).id, -1, 'callers get a copy')
})
