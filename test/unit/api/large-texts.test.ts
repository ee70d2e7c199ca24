/**
 * Large texts out of the read model: the byte-bounded LRU that keeps what reads fetched, and the
 * store, which keeps rows without the columns the catalogue marks `large`.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { ByteLru } from '../../../api/read-model/large-texts.js'
import { openReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf, largeColumnsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf } from '../../../api/read-model/list-index.js'

t.test('the LRU evicts the least recently used entries by bytes', async (t) => {
  const lru = new ByteLru<string>(100)
  lru.set('a', 'A', 40)
  lru.set('b', 'B', 40)
  t.equal(lru.bytes, 80)
  t.equal(lru.get('a'), 'A', 'a read makes a the most recently used')
  lru.set('c', 'C', 40)
  t.equal(lru.get('b'), undefined, 'b, the least recently used, evicted to fit c')
  t.equal(lru.get('a'), 'A')
  t.equal(lru.get('c'), 'C')
  t.equal(lru.bytes, 80, 'bytes follow what is held')
  lru.set('d', 'D', 90)
  t.same([lru.get('a'), lru.get('c'), lru.get('d')], [undefined, undefined, 'D'], 'one large entry evicts as many as it needs')
  t.equal(lru.bytes, 90)
  lru.set('e', 'E', 101)
  t.equal(lru.get('e'), undefined, 'an entry larger than the bound is not kept')
  t.equal(lru.get('d'), 'D', 'and evicts nothing')
  lru.set('d', 'D2', 10)
  t.equal(lru.bytes, 10, 'replacing an entry counts its new size only')
  t.equal(lru.size, 1)
  const none = new ByteLru<string>(0)
  none.set('x', 'X', 1)
  t.equal(none.size, 0, 'a bound of 0 keeps nothing')
})

t.test('the store keeps rows without their large columns', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-store-large-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const large = largeColumnsOf(cat)
  t.same([...large.get('opinions')!].sort(), ['html', 'html_anon_2020', 'html_partner_a', 'html_partner_b', 'html_with_citations', 'plain_text', 'xml_partner_c', 'xml_scan'], 'the opinion texts are large')
  t.same(large.get('citation-texts'), ['html_with_citations'])
  t.same(large.get('archive-documents'), ['plain_text'])
  t.notOk(large.has('dockets'), 'dockets have none')
  const store = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat), new Set(), large)
  t.teardown(() => store.close())
  const ts = '2024-03-01T10:00:00Z'
  await store.apply([
    { resource: 'opinions', event: { op: 'upsert', version: 7, key: '1', entity: { id: 1, cluster_id: 5, plain_text: 'x'.repeat(5000), html: '<p>h</p>', html_with_citations: '<p>c</p>', type: '020lead', date_modified: ts } } },
    { resource: 'dockets', event: { op: 'upsert', version: 1, key: '2', entity: { id: 2, court_id: 'scotus', case_name: 'Case', date_modified: ts } } },
  ], [])
  const row = store.get('opinions', 1)!
  t.same(row, { id: 1, cluster_id: 5, type: '020lead', date_modified: ts }, 'the opinion without its texts')
  t.equal(store.stored('opinions', 1)?.v, 7, 'at its version')
  t.same(store.keysWhere('opinions', 'cluster_id', 5), [1], 'its ref columns indexed as before')
  t.equal(store.get('dockets', 2)?.case_name, 'Case', 'other resources whole')
})
