import t from 'tap'
import { eventsToRows } from '../../../streams/table-sink.js'
import { validateEntityEvent } from '../../../streams/decode.js'
import { catalogue } from '../../../schemas/catalogue/index.js'

t.test('upserts become versioned rows; deletes become tombstone rows', async (t) => {
  const dockets = catalogue.get('dockets')
  const courts = catalogue.get('courts')
  const rows = eventsToRows([
    { resource: dockets, event: { op: 'upsert', version: 10, key: '1', entity: { id: 1, case_name: 'A v. B' } } },
    { resource: dockets, event: { op: 'delete', version: 11, key: '2', entity: null } },
    { resource: courts, event: { op: 'delete', version: 12, key: 'scotus', entity: null } },
  ])
  t.same(rows.get('dockets'), [{ id: 1, case_name: 'A v. B', _version: 10, _deleted: 0 }, { id: 2, _version: 11, _deleted: 1 }])
  t.same(rows.get('courts'), [{ id: 'scotus', _version: 12, _deleted: 1 }], 'string keys stay strings')
})

t.test('event validation catches what Avro cannot', async (t) => {
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 1, key: '1', entity: { id: 2 } }), { name: 'UndecodableEvent' })
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 1, key: '1', entity: null }), { name: 'UndecodableEvent' })
  t.throws(() => validateEntityEvent({ op: 'upsert', version: 0, key: '1', entity: { id: 1 } }), { name: 'UndecodableEvent' })
  t.same(validateEntityEvent({ op: 'delete', version: 3, key: '1', entity: null }).key, '1')
})
