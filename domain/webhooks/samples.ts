/**
 * The fixed sample payload of each event type and version, posted by "send a test event". Test
 * events are flagged debug: a failure marks them failed at once, never retried, never counted.
 * Samples go through the same shapers as real events, so they cannot drift from the real shape.
 */
import { EVENT_TYPES, type EventTypeId, type WebhookVersion } from './event-types.js'
import {
  archiveFetchPayload, docketAlertPayload, oldDocketAlertsPayload, prayAndPayPayload, searchAlertPayload,
} from './payloads.js'

const T = '2024-05-20T10:30:00.000000+00:00'
const SECRET = '<SECRET_KEY>'

const SAMPLE_ENTRY = {
  id: 394723880,
  docket: 68519542,
  date_created: T,
  date_modified: T,
  date_filed: '2024-05-20',
  time_filed: '10:28:00',
  entry_number: 12,
  archive_sequence_number: '2024-05-20.001',
  records_sequence_number: 48,
  description: 'ORDER granting 11 Motion for Extension of Time to File Answer. Signed by Judge Sample on 5/20/2024.',
  archive_documents: [{
    id: 411120930, absolute_url: '/docket/68519542/12/sample-v-example/', date_created: T, date_modified: T,
    date_upload: T, document_type: 1, document_number: '12', attachment_number: null, records_doc_id: '127035841287',
    is_available: true, is_free_on_records: false, is_sealed: false, sha1: '2f4e1e4b6e1f9e0a2b3c4d5e6f708192a3b4c5d6',
    page_count: 2, file_size: 52841, filepath_local: 'archive/sample.12.0.pdf', filepath_ia: '', ia_upload_failure_count: null,
    thumbnail: null, thumbnail_status: 0, ocr_status: null, description: 'Order on Motion for Extension of Time', acms_document_guid: '',
  }],
}

const SAMPLE_SEARCH_ALERT = {
  id: 4321, user: 1, date_created: T, date_modified: T, date_last_hit: null,
  name: 'Sample alert', query: 'q=%22sample+case%22&type=o', rate: 'rt', alert_type: 'o', secret_key: SECRET,
}

/** One v4 search row of type o (a cluster with one opinion). */
const SAMPLE_CLUSTER_ROW = {
  absolute_url: '/opinion/9785345/sample-v-example/', attorney: '', caseName: 'Sample v. Example',
  caseNameFull: 'Sample Corporation v. Example Holdings', citation: ['123 F.4th 456'], citeCount: 0, cluster_id: 9785345,
  court: 'Court of Appeals for the Ninth Circuit', court_citation_string: '9th Cir.', court_id: 'ca9', court_jurisdiction: 'F',
  dateArgued: null, dateFiled: '2024-05-20', dateReargued: null, dateReargumentDenied: null, docketNumber: '23-1234',
  docket_id: 68519541, judge: 'Sample, Example', lexisCite: '', neutralCite: '', non_participating_judge_ids: [],
  panel_ids: [], panel_names: [], posture: '', procedural_history: '', scdb_id: '', sibling_ids: [10117802],
  source: 'C', status: 'Published', suitNature: '', syllabus: '',
  meta: { timestamp: T, date_created: T, score: { bm25: 1.5 } },
  opinions: [{
    author_id: null, cites: [], download_url: null, id: 10117802, joined_by_ids: [], local_path: null, ordering_key: null,
    per_curiam: false, sha1: '', snippet: 'The <mark>sample case</mark> concerns ...', type: 'combined-opinion',
    meta: { timestamp: T, date_created: T },
  }],
}

const SAMPLE_FETCH = {
  id: 1234, court: null, docket: null, archive_document: 112, date_created: T, date_modified: T, date_completed: T,
  status: 2, request_type: 2, message: 'Successfully completed fetch and save.', records_case_id: '', docket_number: '',
  de_date_start: null, de_date_end: null, de_number_start: null, de_number_end: null,
  show_parties_and_counsel: false, show_terminated_parties: false, show_list_of_member_cases: false,
}

const SAMPLE_DOCKET_ALERT = { id: 133013, date_created: T, date_modified: T, date_last_hit: null, docket: 1945832, secret_key: SECRET, alert_type: 1 }

const SAMPLE_PRAYER = { id: 321, date_created: T, status: 2, archive_document: 411120930 }

function build(type: EventTypeId, version: WebhookVersion): unknown {
  switch (type) {
    case EVENT_TYPES.DOCKET_ALERT.id: return docketAlertPayload([SAMPLE_ENTRY])
    case EVENT_TYPES.SEARCH_ALERT.id: return searchAlertPayload({ version, alertType: 'o', alert: SAMPLE_SEARCH_ALERT, results: [SAMPLE_CLUSTER_ROW] })
    case EVENT_TYPES.ARCHIVE_FETCH.id: return archiveFetchPayload(SAMPLE_FETCH)
    case EVENT_TYPES.OLD_DOCKET_ALERTS_REPORT.id: return oldDocketAlertsPayload({ old_alerts: [SAMPLE_DOCKET_ALERT], disabled_alerts: [{ ...SAMPLE_DOCKET_ALERT, id: 133014, alert_type: 0 }] })
    case EVENT_TYPES.PRAY_AND_PAY.id: return prayAndPayPayload(SAMPLE_PRAYER)
  }
}

/** Built once: type → version → payload, frozen. */
const SAMPLES: ReadonlyMap<string, unknown> = new Map(
  (Object.values(EVENT_TYPES).map((t) => t.id) as EventTypeId[]).flatMap((type) =>
    ([1, 2] as WebhookVersion[]).map((version) => [`${type}:${version}`, deepFreeze(build(type, version))] as const)),
)

/** The sample payload for a test event (a fresh copy, safe to mutate). */
export function samplePayload(type: EventTypeId, version: WebhookVersion): unknown {
  const p = SAMPLES.get(`${type}:${version}`)
  if (p === undefined) throw new Error(`no sample for webhook event type ${type} v${version}`)
  return structuredClone(p)
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v as object)) deepFreeze(x)
    Object.freeze(v)
  }
  return v
}
