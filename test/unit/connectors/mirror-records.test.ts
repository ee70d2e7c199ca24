import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { planMirror } from '../../../connectors/mirror/plan.js'
import { idOfRelation, toMirrorRecords, syntheticId } from '../../../connectors/mirror/records.js'

const cluster = {
  resource_uri: 'https://src.example/api/rest/v4/clusters/7/', id: 7, absolute_url: '/opinion/7/x/',
  docket: 'https://src.example/api/rest/v4/dockets/42/', docket_id: 42,
  panel: ['https://src.example/api/rest/v4/people/3/', 'https://src.example/api/rest/v4/people/4/'],
  sub_opinions: ['https://src.example/api/rest/v4/opinions/70/'],
  citations: [{ volume: 576, reporter: 'U.S.', page: '644', type: 1 }, { volume: 135, reporter: 'S. Ct.', page: '2584', type: 3 }],
  case_name: 'Obergefell v. Hodges', date_filed: '2015-06-26', date_modified: '2024-01-02T03:04:05.123456+00:00',
}

t.test('URLs, embedded objects and raw ids become ids', async (t) => {
  t.equal(idOfRelation('https://h/api/rest/v4/dockets/42/', catalogue.get('dockets')), 42)
  t.equal(idOfRelation('https://h/api/rest/v4/courts/scotus/', catalogue.get('courts')), 'scotus', 'string keys stay strings')
  t.equal(idOfRelation({ id: 9, name: 'x' }, catalogue.get('people')), 9, 'an embedded object gives its id')
  t.equal(idOfRelation(12, catalogue.get('dockets')), 12)
  t.equal(idOfRelation(null, catalogue.get('dockets')), null)
  t.throws(() => idOfRelation('https://h/api/rest/v4/dockets/abc/', catalogue.get('dockets')), /names no dockets id/)
})

t.test('a cluster becomes its record and its citations, linked back', async (t) => {
  const step = planMirror(catalogue, ['clusters'])[0]
  const recs = toMirrorRecords(catalogue, step.resource, cluster, step.nested)
  t.equal(recs.length, 3)
  t.match(recs[0], { resource: 'clusters', record: { id: 7, docket_id: 42, panel_ids: [3, 4], case_name: 'Obergefell v. Hodges', date_modified: cluster.date_modified } })
  t.notOk('sub_opinions' in recs[0].record, 'derived fields are not stored')
  t.notOk('resource_uri' in recs[0].record)
  t.match(recs[1], { resource: 'citations', record: { cluster_id: 7, volume: 576, reporter: 'U.S.', page: '644', type: 1 } })
  t.equal(recs[1].record.id, syntheticId('citations', 7, 0), 'a hidden id is made from the parent and position')
  t.not(recs[1].record.id, recs[2].record.id)
  t.same(toMirrorRecords(catalogue, step.resource, cluster, step.nested), recs, 'the same object, the same records (a repeat is an update, not a new row)')
})

t.test('a docket\'s court comes from its URL, an embedded originating court from its id', async (t) => {
  const [{ record }] = toMirrorRecords(catalogue, catalogue.get('dockets'), {
    id: 42, court: 'https://h/api/rest/v4/courts/nysd/', court_id: 'nysd', original_court_info: { id: 5, docket_number: '1' }, assigned_to: null, tags: [], panel: [],
  })
  t.match(record, { id: 42, court_id: 'nysd', original_court_info_id: 5, assigned_to_id: null, tags_ids: [], panel_ids: [] })
})

t.test('a list that hides its key still gives each object its id, from resource_uri', async (t) => {
  const [{ record }] = toMirrorRecords(catalogue, catalogue.get('fjc-integrated-database'), { resource_uri: 'https://h/api/rest/v4/fjc-integrated-database/31/', dataset_source: 1, date_modified: '2024-01-01T00:00:00+00:00' })
  t.equal(record.id, 31)
})

t.test('nested rows numbered in their parent keep the source\'s order', async (t) => {
  t.ok(syntheticId('citations', 7, 0) < syntheticId('citations', 7, 1), 'position order within a parent')
  t.ok(syntheticId('citations', 7, 999) < syntheticId('citations', 8, 0), 'parents do not overlap')
  t.equal(syntheticId('citations', 'scotus', 0), syntheticId('citations', 'scotus', 0), 'a text key gets a stable hashed id')
})

t.test('a nested row takes what its ancestors show, and its id from its own rows when they name it', async (t) => {
  const entries = planMirror(catalogue, ['docket-entries'])[0]
  const [, doc] = toMirrorRecords(catalogue, entries.resource, {
    id: 11, docket: 'https://h/api/rest/v4/dockets/42/', entry_number: 1, description: 'COMPLAINT',
    archive_documents: [{ id: 111, document_number: '1', description: 'Complaint' }],
  }, entries.nested)
  t.match(doc, { resource: 'archive-documents', record: { id: 111, docket_entry_id: 11, docket_id: 42 } }, 'the docket its entry names')

  const parties = planMirror(catalogue, ['parties'])[0]
  const recs = toMirrorRecords(catalogue, parties.resource, {
    id: 2, name: 'Walter Murray', party_types: [{ name: 'Defendant', criminal_counts: [{ id: 1, name: 'count', party_type: 2, status: 1 }], criminal_complaints: [] }],
  }, parties.nested)
  t.match(recs.find((r) => r.resource === 'party-types'), { record: { id: 2, party_id: 2 } }, 'the party type\'s id as its criminal counts show it')
})
