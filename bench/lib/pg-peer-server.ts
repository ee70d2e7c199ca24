/**
 * The PostgreSQL peer of the read benchmark: a plain Fastify + `pg` server over the dockets copied
 * by pg-copy.ts, answering the same URLs with the same JSON as the API:
 *   GET /api/rest/v4/dockets/<id>/                                   one query by primary key
 *   GET /api/rest/v4/dockets/?court=<c>[&date_filed__gte=<d>]&order_by=-date_filed
 *       one query: the first page of 20 (index on (court_id, date_filed)) and the count
 * The object is built from the row by hand (the API's field order) and sent with JSON.stringify.
 * No authentication, no throttling, no cache: the peer does less than the API, not more.
 *   PORT=… PG_PORT=… [PG_POOL=10] node --import tsx bench/lib/pg-peer-server.ts
 */
import Fastify, { type FastifyRequest } from 'fastify'
import pg from 'pg'

const port = Number(process.env.PORT ?? 0)
pg.types.setTypeParser(20, Number) // int8
pg.types.setTypeParser(1016 as Parameters<typeof pg.types.setTypeParser>[0], (v: string) => (v === '{}' ? [] : v.slice(1, -1).split(',').map(Number))) // int8[]
pg.types.setTypeParser(1082, (v: string) => v) // date stays YYYY-MM-DD
pg.types.setTypeParser(1184, (v: string) => v) // timestamptz as text, formatted below
const pool = new pg.Pool({ host: '127.0.0.1', port: Number(process.env.PG_PORT), user: 'postgres', database: 'postgres', max: Number(process.env.PG_POOL ?? 10) })

type Row = Record<string, unknown>

/** '2024-05-07 21:29:56.0692+00' → '2024-05-07T21:29:56.069200+00:00' (the API's form; no fraction when zero). */
function timestamp(v: unknown): string | null {
  if (typeof v !== 'string') return null
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)?\+00$/.exec(v)
  if (!m) return v
  return `${m[1]}T${m[2]}${m[3] ? m[3].padEnd(7, '0') : ''}+00:00`
}

function render(r: Row, base: string): Row {
  const url = (resource: string, id: unknown) => (id === null || id === undefined ? null : `${base}/api/rest/v4/${resource}/${id}/`)
  const urls = (resource: string, ids: unknown) => (ids as unknown[]).map((id) => `${base}/api/rest/v4/${resource}/${id}/`)
  return {
    resource_uri: url('dockets', r.id), id: r.id, court: url('courts', r.court_id), court_id: r.court_id,
    original_court_info: null, idb_data: null,
    clusters: urls('clusters', r.cluster_ids), audio_files: urls('audio', r.audio_ids),
    assigned_to: url('people', r.assigned_to_id), referred_to: url('people', r.referred_to_id), bankruptcy_information: null,
    absolute_url: `/docket/${r.id}/${r.slug || 'case'}/`,
    date_created: timestamp(r.date_created), date_modified: timestamp(r.date_modified), source: r.source,
    appeal_from_str: r.appeal_from_str, assigned_to_str: r.assigned_to_str, referred_to_str: r.referred_to_str, panel_str: r.panel_str,
    date_last_index: timestamp(r.date_last_index), date_cert_granted: r.date_cert_granted, date_cert_denied: r.date_cert_denied,
    date_argued: r.date_argued, date_reargued: r.date_reargued, date_reargument_denied: r.date_reargument_denied,
    date_filed: r.date_filed, date_terminated: r.date_terminated, date_last_filing: r.date_last_filing,
    case_name_short: r.case_name_short, case_name: r.case_name, case_name_full: r.case_name_full, slug: r.slug,
    docket_number: r.docket_number, docket_number_core: r.docket_number_core, docket_number_raw: r.docket_number_raw,
    docket_number_source: r.docket_number_source, federal_dn_office_code: r.federal_dn_office_code, federal_dn_case_type: r.federal_dn_case_type,
    federal_dn_judge_initials_assigned: r.federal_dn_judge_initials_assigned, federal_dn_judge_initials_referred: r.federal_dn_judge_initials_referred,
    federal_defendant_number: r.federal_defendant_number, records_case_id: r.records_case_id, cause: r.cause, nature_of_suit: r.nature_of_suit,
    jury_demand: r.jury_demand, jurisdiction_type: r.jurisdiction_type, appellate_fee_status: r.appellate_fee_status,
    appellate_case_type_information: r.appellate_case_type_information, mdl_status: r.mdl_status, filepath_ia: r.filepath_ia,
    filepath_ia_json: r.filepath_ia_json, ia_upload_failure_count: r.ia_upload_failure_count, ia_needs_upload: r.ia_needs_upload,
    ia_date_first_change: timestamp(r.ia_date_first_change), date_blocked: r.date_blocked, blocked: r.blocked,
    appeal_from: url('courts', r.appeal_from_id), parent_docket: url('dockets', r.parent_docket_id),
    tags: urls('tag', r.tags_ids), panel: urls('people', r.panel_ids),
  }
}

const base = (req: FastifyRequest) => `${req.protocol}://${req.headers.host}`
const PAGE = 20
const LIST = (dated: boolean) => `WITH page AS (
    SELECT * FROM dockets WHERE court_id = $1 ${dated ? 'AND date_filed >= $2' : ''} ORDER BY date_filed DESC, id DESC LIMIT ${PAGE})
  SELECT (SELECT count(*) FROM dockets WHERE court_id = $1 ${dated ? 'AND date_filed >= $2' : ''}) AS total, page.* FROM page`

const app = Fastify({ logger: false })
app.get<{ Params: { id: string } }>('/api/rest/v4/dockets/:id/', async (req, reply) => {
  if (!/^\d+$/.test(req.params.id)) return reply.code(404).send({ detail: 'Not found.' })
  const { rows } = await pool.query({ name: 'detail', text: 'SELECT * FROM dockets WHERE id = $1', values: [Number(req.params.id)] })
  if (!rows.length) return reply.code(404).send({ detail: 'No Docket matches the given query.' })
  return reply.type('application/json').send(JSON.stringify(render(rows[0], base(req))))
})
app.get<{ Querystring: Record<string, string> }>('/api/rest/v4/dockets/', async (req, reply) => {
  const { court, date_filed__gte: from } = req.query
  if (!court) return reply.code(400).send({ detail: 'this peer serves court lists only' })
  const { rows } = from
    ? await pool.query({ name: 'list-dated', text: LIST(true), values: [court, from] })
    : await pool.query({ name: 'list', text: LIST(false), values: [court] })
  const count = rows.length ? Number(rows[0].total) : 0
  const b = base(req)
  const body = {
    count,
    next: count > PAGE ? `${b}${req.url}&page=2` : null,
    previous: null,
    results: rows.map((r) => render(r, b)),
  }
  return reply.type('application/json').send(JSON.stringify(body))
})
await app.listen({ port, host: '127.0.0.1' })
const stop = () => { void app.close().then(() => pool.end()).then(() => process.exit(0)) }
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
