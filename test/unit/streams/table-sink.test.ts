import t from 'tap'
import { eventsToRows, sinkColumns } from '../../../streams/table-sink.js'
import { validateEntityEvent } from '../../../schemas/events/index.js'
import { catalogue } from '../../../schemas/catalogue/index.js'

t.test('upserts become versioned rows; deletes become tombstone rows', async (t) => {
  const dockets = catalogue.get('dockets')
  const courts = catalogue.get('courts')
  const rows = eventsToRows(catalogue, [
    { resource: dockets, event: { op: 'upsert', version: 10, key: '1', entity: { id: 1, case_name: 'A v. B' } } },
    { resource: dockets, event: { op: 'delete', version: 11, key: '2', entity: null } },
    { resource: courts, event: { op: 'delete', version: 12, key: 'scotus', entity: null } },
  ])
  const d = rows.get('dockets')!
  t.same(d.columns, sinkColumns(catalogue, dockets))
  t.equal(d.upserts.length, 1)
  const up = Object.fromEntries(d.columns.map((c, i) => [c.name, d.upserts[0][i]]))
  t.match(up, { id: 1, case_name: 'A v. B', court_id: undefined, _version: 10, _deleted: 0 }, 'values land in their columns')
  t.same(d.deletes, [{ id: 2, _version: 11, _deleted: 1 }])
  t.same(rows.get('courts')!.deletes, [{ id: 'scotus', _version: 12, _deleted: 1 }], 'string keys stay strings')
})

t.test('event validation catches what Avro cannot', async (t) => {
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 1, key: '1', entity: { id: 2 } }), { name: 'UndecodableEvent' })
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 1, key: '1', entity: null }), { name: 'UndecodableEvent' })
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 0, key: '1', entity: { id: 1 } }), { name: 'UndecodableEvent' })
  t.same(validateEntityEvent({ op: 'delete', version: 3, key: '1', entity: null }).key, '1')
})
