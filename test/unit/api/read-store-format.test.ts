/**
 * A read store written in another layout is replaced on open by deleting its file (emptying a big
 * one entry by entry kept the API from listening for minutes), and the new store starts empty
 * under a new id, so its consumer group reads the topics from the beginning.
 */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { openReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf } from '../../../api/read-model/refs.js'

t.test('an older layout is deleted, not emptied; the current one is kept', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-store-format-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(path.join(dir, 'read-model.mdb'), 'an old layout')
  writeFileSync(path.join(dir, 'read-model.mdb-lock'), '')
  writeFileSync(path.join(dir, 'read-model.v1.mdb'), 'another old layout')
  writeFileSync(path.join(dir, 'notes.txt'), 'not the store')
  const first = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat))
  await first.apply([{ resource: 'courts', event: { op: 'upsert', version: 1, key: 'scotus', entity: { id: 'scotus', full_name: 'Supreme Court' } } }], [{ topic: 'x', partition: 0, offset: '1' }])
  const id = first.storeId
  await first.close()
  const files = readdirSync(dir).sort()
  t.notOk(files.includes('read-model.mdb') || files.includes('read-model.v1.mdb'), `old files deleted (${files.join(', ')})`)
  t.ok(files.includes('notes.txt'), 'other files left alone')
  const again = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat))
  t.equal(again.storeId, id, 'the current layout is reopened, same id')
  t.equal(again.get('courts', 'scotus')?.full_name, 'Supreme Court', 'with its rows')
  t.equal(again.offset('x', 0), '1', 'and its offsets')
  await again.close()
})
