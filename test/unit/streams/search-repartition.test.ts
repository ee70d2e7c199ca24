/**
 * The keys between the search-index role's repartition stage and its indexers: every key of one
 * document goes to one partition (so to one owner), a batch builds a document once, and a
 * document asked for only if indexed is built when any key asks for it unconditionally.
 */
import t from 'tap'
import { encodeDocumentKey, decodeDocumentKey, partitionOf, wantedOf, type DocumentKey } from '../../../streams/search/document-keys.js'
import { offsetKey } from '../../../streams/search/seen-changes.js'

const key = (k: Partial<DocumentKey>): DocumentKey => ({ type: 'o', id: 1, ifIndexed: false, after: [], ...k })

t.test('a document has one partition, whatever change asks for it; documents spread over the partitions', async (t) => {
  const a = encodeDocumentKey(key({ id: 42, after: [['p.entity.courts', 0, '5']] }), 4)
  const b = encodeDocumentKey(key({ id: 42, ifIndexed: true, after: [['p.entity.clusters', 3, '900']] }), 4)
  t.equal(a.partition, b.partition)
  t.equal(a.key, 'o:42')
  t.not(partitionOf('o', 42, 4), undefined)
  t.ok(partitionOf('o', 42, 4) >= 0 && partitionOf('o', 42, 4) < 4)
  const counts = [0, 0, 0, 0]
  for (let id = 1; id <= 4000; id++) counts[partitionOf('r', id, 4)]++
  for (const n of counts) t.ok(n > 800 && n < 1200, `each partition holds about a quarter (${n})`)
  // the same id of another type is another document, placed on its own
  const types = new Set(Array.from({ length: 50 }, (_, id) => partitionOf('d', id, 4) === partitionOf('r', id, 4)))
  t.ok(types.has(false), 'types are part of the key')
})

t.test('a key survives its message; a message that is not a key is refused with the reason', async (t) => {
  const k = key({ type: 'rd', id: 7, ifIndexed: true, after: [['x.entity.dockets', 2, '12']] })
  t.same(decodeDocumentKey(Buffer.from(encodeDocumentKey(k, 4).value as string)), k)
  t.throws(() => decodeDocumentKey(null), /without a value/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'zz', id: 1 }))), /unknown search type "zz"/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'o', id: 1.5 }))), /not a whole number/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'o', id: 1, after: [['t', 0, 'x']] }))), /bad change position/)
  t.throws(() => decodeDocumentKey(Buffer.from('{')), SyntaxError)
})

t.test('a batch asks for each document once: built if any key asks without condition, after the last change of each partition', async (t) => {
  const w = wantedOf([
    key({ id: 1, ifIndexed: true, after: [['c', 0, '5']] }),
    key({ id: 1, ifIndexed: false, after: [['d', 1, '9']] }),
    key({ id: 1, ifIndexed: true, after: [['c', 0, '3']] }),
    key({ id: 2, ifIndexed: true, after: [['c', 0, '5']] }),
    key({ type: 'r', id: 1, after: [['d', 1, '9']] }),
  ])
  t.same([...w.keys()].sort(), ['o', 'r'])
  const one = w.get('o')!.get(1)!
  t.equal(one.ifIndexed, false, 'one unconditional key makes it a build')
  t.same([...one.after].sort(), [[offsetKey('c', 0), 5n], [offsetKey('d', 1), 9n]])
  t.equal(w.get('o')!.get(2)!.ifIndexed, true, 'only conditional keys: the owner decides')
  t.equal(w.get('o')!.size, 2)
})
