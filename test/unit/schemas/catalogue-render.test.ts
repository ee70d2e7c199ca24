/**
 * How catalogue entries render, through the real serializer over an in-memory table set: role
 * objects, raw ids, one-to-one links, embedded rows, nested lists and paths with a slash.
 */
import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileSerializers } from '../../../api/engine/serialize.js'
import { Identifier, Sql } from '../../../core/sql.js'
import type { RequestContext } from '../../../api/engine/context.js'
import type { Db } from '../../../core/clickhouse.js'
import { formatDatetime } from '../../../schemas/values.js'

type Row = Record<string, unknown>

/**
 * A Db that answers the two reads the serializer makes (rows of a table whose column is in a
 * list, ordered by id) from fixtures: it finds the table (`db`.`table`) and the condition
 * (`column IN keys`) wherever they sit in the statement.
 */
function fakeDb(tables: Record<string, Row[]>): Db {
  const query = async (q: Sql) => {
    let table: string | undefined
    let condition: { column: string; keys: unknown[] } | undefined
    const walk = (s: Sql) => {
      if (s.strings.map((x) => x.trim()).join('|') === '|.|' && !table) table = (s.values[1] as Identifier).name
      s.values.forEach((v, i) => {
        const next = s.values[i + 1]
        if (!condition && v instanceof Identifier && Array.isArray(next) && s.strings[i + 1].trim() === 'IN') condition = { column: v.name, keys: next }
        if (v instanceof Sql) walk(v)
      })
    }
    walk(q)
    if (!table || !condition) throw new Error('not a read this fake answers')
    const { column, keys } = condition
    return (tables[table] ?? []).filter((r) => keys.includes(r[column])).sort((a, b) => Number(a.id) - Number(b.id))
  }
  return { database: 'db', query } as unknown as Db
}

const render = async (name: string, rows: Row[], tables: Record<string, Row[]>) => {
  const ctx: RequestContext = { db: fakeDb(tables), catalogue, origin: 'http://x', version: 'v4' }
  return compileSerializers(catalogue).get(name)!(rows, ctx)
}
const ts = '2026-01-02T03:04:05.000000Z'
const shown = formatDatetime(ts)

t.test('parties: attorney role objects and party types with criminal counts', async (t) => {
  const tables = {
    attorney_roles: [
      { id: 1, party_id: 7, attorney_id: 3, docket_id: 9, role: 2, date_action: null },
      { id: 2, party_id: 8, attorney_id: 3, docket_id: 9, role: 1, date_action: '2020-01-01' },
    ],
    party_types: [{ id: 5, party_id: 7, docket_id: 9, name: 'Defendant', date_terminated: null, extra_info: '', highest_offense_level_opening: '', highest_offense_level_terminated: '' }],
    criminal_counts: [{ id: 11, party_type_id: 5, name: 'Count 1', disposition: 'Dismissed', status: 2 }],
    criminal_complaints: [],
  }
  const [party] = await render('parties', [{ id: 7, name: 'Doe', extra_info: '', date_created: ts, date_modified: ts, docket_ids: [9], attorney_ids: [3] }], tables)
  t.same(Object.keys(party), ['resource_uri', 'id', 'attorneys', 'party_types', 'date_created', 'date_modified', 'name', 'extra_info'], 'hidden links stay hidden')
  t.same(party.attorneys, [{ attorney: 'http://x/api/rest/v4/attorneys/3/', attorney_id: 3, date_action: null, docket: 'http://x/api/rest/v4/dockets/9/', docket_id: 9, role: 2 }])
  t.same(party.party_types, [{
    docket: 'http://x/api/rest/v4/dockets/9/', docket_id: 9, name: 'Defendant', date_terminated: null, extra_info: '',
    highest_offense_level_opening: '', highest_offense_level_terminated: '',
    criminal_counts: [{ id: 11, name: 'Count 1', disposition: 'Dismissed', status: 2, party_type: 5 }], criminal_complaints: [],
  }])
  const [attorney] = await render('attorneys', [{ id: 3, name: 'Counsel', contact_raw: '', phone: '', fax: '', email: '', date_created: ts, date_modified: ts, docket_ids: [9] }], tables)
  t.same(attorney.parties_represented, [
    { role: 2, docket: 'http://x/api/rest/v4/dockets/9/', party: 'http://x/api/rest/v4/parties/7/', date_action: null },
    { role: 1, docket: 'http://x/api/rest/v4/dockets/9/', party: 'http://x/api/rest/v4/parties/8/', date_action: '2020-01-01' },
  ])
})

t.test('user tags list their dockets as ids; docket tags and prayers show raw ids; the owner is hidden', async (t) => {
  const tables = { docket_tags: [{ id: 1, tag_id: 4, docket_id: 10, user_id: 2, published: false }, { id: 2, tag_id: 4, docket_id: 12, user_id: 2, published: false }] }
  const [tag] = await render('tags', [{ id: 4, user_id: 2, name: 'mine', title: '', description: 'notes', view_count: 0, published: false, date_created: ts, date_modified: ts }], tables)
  t.same(tag.dockets, [10, 12])
  t.notOk('user' in tag)
  t.equal(tag.description, 'notes', 'shown although OPTIONS leaves it out')
  const [dt] = await render('docket-tags', tables.docket_tags.slice(0, 1), tables)
  t.same(dt, { id: 1, docket: 10, tag: 4 })
  const [prayer] = await render('prayers', [{ id: 3, user_id: 2, date_created: ts, status: 1, archive_document_id: 77 }], {})
  t.same(prayer, { id: 3, date_created: shown, status: 1, archive_document: 77 })
})

t.test('dockets: bankruptcy information as one link, originating court and integrated database embedded', async (t) => {
  const tables = {
    bankruptcy_information: [{ id: 5, docket_id: 1, chapter: '7' }],
    originating_court_information: [{ id: 6, docket_number: '1:20-cv-1', date_created: ts, date_modified: ts, assigned_to_id: null, ordering_judge_id: null }],
    fjc_integrated_database: [{ id: 8, dataset_source: 2, circuit_id: 'ca1', district_id: null, date_created: ts, date_modified: ts }],
  }
  const [docket] = await render('dockets', [{ id: 1, court_id: 'scotus', original_court_info_id: 6, idb_data_id: 8, tags_ids: [], panel_ids: [], date_created: ts, date_modified: ts }], tables)
  t.equal(docket.bankruptcy_information, 'http://x/api/rest/v4/bankruptcy-information/5/')
  t.match(docket.original_court_info, { resource_uri: 'http://x/api/rest/v4/originating-court-information/6/', id: 6, docket_number: '1:20-cv-1', assigned_to: null })
  t.match(docket.idb_data, { resource_uri: 'http://x/api/rest/v4/fjc-integrated-database/8/', dataset_source: 2, circuit: 'http://x/api/rest/v4/courts/ca1/' })
  t.notOk('id' in (docket.idb_data as Row), 'the integrated-database row shows no id, as in the reference')
  const [bare] = await render('dockets', [{ id: 2, court_id: 'scotus', original_court_info_id: null, idb_data_id: null, tags_ids: [], panel_ids: [], date_created: ts, date_modified: ts }], tables)
  t.equal(bare.bankruptcy_information, null)
  t.equal(bare.original_court_info, null)
})

t.test('clusters list their redirections; visualization data lives under visualizations/json', async (t) => {
  const tables = { cluster_redirections: [{ id: 40, cluster_id: 1, deleted_cluster_id: 40, reason: 2, date_created: ts }, { id: 41, cluster_id: null, deleted_cluster_id: 41, reason: 4, date_created: ts }] }
  const [cluster] = await render('clusters', [{ id: 1, docket_id: 3, panel_ids: [], non_participating_judges_ids: [], date_created: ts, date_modified: ts }], tables)
  t.same(cluster.cluster_redirections, [{ date_created: shown, deleted_cluster_id: 40, reason: 2 }])
  const json = { id: 5, map_id: 2, user_id: 1, published: true, json_data: '{}', date_created: ts, date_modified: ts }
  const [v] = await render('visualizations', [{ id: 2, user_id: 1, cluster_start_id: 1, cluster_end_id: 1, clusters_ids: [], published: true, date_created: ts, date_modified: ts }], { visualization_json: [json] })
  t.same((v.json_versions as Row[]).map((x) => x.resource_uri), ['http://x/api/rest/v4/visualizations/json/5/'])
  t.equal((v.json_versions as Row[])[0].map, 'http://x/api/rest/v4/visualizations/2/')
})
