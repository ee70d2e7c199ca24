/**
 * A read store written in another layout is replaced on open by deleting its file (emptying a big
 * one entry by entry kept the API from listening for minutes), and the new store starts empty
 * under a new id, so its consumer group reads the topics from the beginning.
 */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { openReadStore } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf, type ListIndex } from '../../../api/read-model/list-index.js'

t.test('an older layout is deleted, not emptied; the current one is kept', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-store-format-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(path.join(dir, 'read-model.mdb'), 'an old layout')
  writeFileSync(path.join(dir, 'read-model.mdb-lock'), '')
  writeFileSync(path.join(dir, 'read-model.v1.mdb'), 'another old layout')
  writeFileSync(path.join(dir, 'notes.txt'), 'not the store')
  const first = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat))
  await first.apply([{ resource: 'courts', event: { op: 'upsert', version: 1, key: 'scotus', entity: { id: 'scotus', full_name: 'Supreme Court' } } }], [{ topic: 'x', partition: 0, offset: '1' }])
  const id = first.storeId
  await first.close()
  const files = readdirSync(dir).sort()
  t.notOk(files.includes('read-model.mdb') || files.includes('read-model.v1.mdb'), `old files deleted (${files.join(', ')})`)
  t.ok(files.includes('notes.txt'), 'other files left alone')
  const again = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat))
  t.equal(again.storeId, id, 'the current layout is reopened, same id')
  t.equal(again.get('courts', 'scotus')?.full_name, 'Supreme Court', 'with its rows')
  t.equal(again.offset('x', 0), '1', 'and its offsets')
  await again.close()
})

t.test('a store kept without a list index the catalogue now has is built again, not reopened', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-store-indexes-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const before = new Map([...listIndexesOf(cat)].map(([r, ixs]) => [r, ixs.filter((ix) => ix.order !== 'date_modified')] as [string, ListIndex[]]))
  const old = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), before)
  await old.apply([{ resource: 'dockets', event: { op: 'upsert', version: 1, key: '1', entity: { id: 1, court_id: 'scotus', date_modified: '2024-03-01T10:00:00Z' } } }], [{ topic: 'x', partition: 0, offset: '1' }])
  const oldId = old.storeId
  await old.close()
  const now = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat))
  t.teardown(() => now.close())
  t.not(now.storeId, oldId, 'a new store: its consumer group reads the topics from the beginning')
  t.equal(now.get('dockets', 1), undefined, 'nothing kept from the old one')
  t.equal(readdirSync(dir).filter((f) => f.endsWith('.mdb')).length, 1, 'the old file deleted')
})

t.test('large rows (opinion texts) are stored compressed and read back whole, also after a reopen', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-store-compress-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const words = 'the court held that the plaintiff failed to state a claim under section 1983 and we affirm the judgment of the district court'.split(' ')
  // varied text (a seeded walk over the words), ~12 KB per opinion in two formats, as real rows carry
  const textOf = (id: number) => Array.from({ length: 1000 }, (_, i) => words[(id * 31 + i * i * 7) % words.length]).join(' ')
  const rows = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, plain_text: textOf(i), html: `<div><p>${textOf(i)}</p></div>`, cluster_id: 1 }))
  const store = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat))
  await store.apply(rows.map((row) => ({ resource: 'opinions', event: { op: 'upsert' as const, version: 1, key: String(row.id), entity: row } })), [])
  await store.close()
  const raw = rows.reduce((n, r) => n + r.plain_text.length + r.html.length, 0)
  const file = readdirSync(dir).find((f) => f.endsWith('.mdb'))
  t.ok(file, 'the store file exists')
  const size = statSync(path.join(dir, String(file))).size
  t.ok(size < raw / 2, `store ${size} bytes for ${raw} bytes of text`)
  const again = openReadStore(dir, refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat))
  t.teardown(() => again.close())
  for (const r of [rows[0], rows[199], rows[399]]) {
    const back = again.get('opinions', r.id)
    t.equal(back?.plain_text, r.plain_text, `opinion ${r.id} plain_text whole`)
    t.equal(back?.html, r.html, `opinion ${r.id} html whole`)
  }
  const small = again.get('opinions', 1)
  t.equal(small?.cluster_id, 1, 'other columns of a compressed row intact')
})
